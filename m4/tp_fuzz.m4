dnl tp_fuzz.m4 - TP_AC_FUZZ: --enable-fuzz, the libFuzzer targets of fuzz/
dnl (doc/fuzzing.md), in a build tree of their own configured CC=clang.
dnl
dnl Everything there is compiled with libFuzzer's coverage hooks and
dnl ASan+UBSan (SAN_CFLAGS, SAN_LDFLAGS replaced), so that the parsers in
dnl libtopo and libtoporeplay are what the fuzzer sees; only the
dnl fuzz/fuzz_* programs link libFuzzer's main (FUZZ_LDFLAGS).  gcc has no
dnl libFuzzer, hence the link check.  Defines the AM_CONDITIONAL FUZZ.
AC_DEFUN([TP_AC_FUZZ], [
AC_REQUIRE([TP_AC_SANITIZERS])
AC_ARG_ENABLE([fuzz],
	[AS_HELP_STRING([--enable-fuzz], [build the libFuzzer targets (needs CC=clang; implies --enable-sanitizers)])],
	[], [enable_fuzz=no])
AS_IF([test "x$enable_fuzz" = xyes],
      [AC_MSG_CHECKING([whether $CC links libFuzzer targets])
       fuzz_save_CFLAGS=$CFLAGS
       CFLAGS="$CFLAGS -fsanitize=fuzzer,address,undefined"
       AC_LINK_IFELSE([AC_LANG_SOURCE([[
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{ return data && size ? 0 : 0; }]])],
		      [AC_MSG_RESULT([yes])],
		      [AC_MSG_RESULT([no])
		       AC_MSG_ERROR([--enable-fuzz needs clang with libFuzzer: apt-get install clang libclang-rt-14-dev, then configure CC=clang])])
       CFLAGS=$fuzz_save_CFLAGS
       SAN_CFLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g"
       SAN_LDFLAGS="-fsanitize=address,undefined"
       FUZZ_LDFLAGS="-fsanitize=fuzzer"])
AM_CONDITIONAL([FUZZ], [test "x$enable_fuzz" = xyes])
AC_SUBST([FUZZ_LDFLAGS])
])
