/*
 * fuzz_util.h - what the fuzz targets share (doc/fuzzing.md).
 *
 * Most parsers of the project read a path, not a buffer, so a target
 * writes its input to a temporary file first: one per process, in a
 * directory of its own under $TMPDIR, rewritten for every input and
 * removed at exit.  The checks abort(), which libFuzzer reports as a
 * crash with the input that caused it.
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* The fuzzer's entry point (declared here: the targets define it). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The path of file `name` in this process's temporary directory. */
const char *fuzz_path(const char *name);
/* Write data to fuzz_path(name) (replacing it) and return that path. */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size);
/* The input as a malloc'd C string (it ends at the first NUL byte, as a
 * string from a command line or slurm.conf would). */
char *fuzz_str(const uint8_t *data, size_t size);
/* The whole contents of a file as a malloc'd string; NULL if unreadable. */
char *fuzz_slurp(const char *path);

/* Can a writer put `name` last on a line of a Key=Value file?  Not when
 * it ends with a backslash, which there continues the line (Slurm's
 * rule), or with a carriage return, which the reader strips there (CRLF
 * files): "PartitionName=x\\ Nodes=..." reads, "...Class=x\\" does not
 * read back.  The writers (ftconf, hetgen) only write names they
 * generated; the round-trip checks leave such names out. */
int fuzz_writable_name(const char *name);

/* A failed check: prints what and aborts. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						    noreturn));
/* Every parser names the file in its error messages ("FILE:LINE: ..."),
 * and never fails silently. */
void fuzz_check_error(int rc, const char *msg, const char *path);

#endif
