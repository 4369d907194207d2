/*
 * error.h - error reports that name where bad input came from.
 *
 * Every parser in the core reports "FILE:LINE: message" into a caller-owned
 * tp_error instead of printing or exiting, so the simulator can print it and
 * the Slurm plugins can pass it to Slurm's error().
 */
#ifndef TP_ERROR_H
#define TP_ERROR_H

typedef struct tp_error {
	char msg[512];
} tp_error;

/* Formats into err (if non-NULL) and returns -1, so parsers can
 * `return tp_errorf(err, "%s:%d: bad value '%s'", file, line, v);` */
int tp_errorf(tp_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
