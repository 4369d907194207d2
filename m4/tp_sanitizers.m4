dnl tp_sanitizers.m4 - TP_AC_SANITIZERS: --enable-sanitizers, everything
dnl built with ASan+UBSan (the test script's extra run of the unit tests).
dnl
dnl Sets and substitutes SAN_CFLAGS and SAN_LDFLAGS (Makefile.am adds them
dnl to every target); TP_AC_FUZZ may replace them.
AC_DEFUN([TP_AC_SANITIZERS], [
AC_ARG_ENABLE([sanitizers],
	[AS_HELP_STRING([--enable-sanitizers], [build with AddressSanitizer and UndefinedBehaviorSanitizer])],
	[], [enable_sanitizers=no])
AS_IF([test "x$enable_sanitizers" = xyes],
      [SAN_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
       SAN_LDFLAGS="-fsanitize=address,undefined"])
AC_SUBST([SAN_CFLAGS])
AC_SUBST([SAN_LDFLAGS])
])
