dnl tp_check.m4 - TP_AC_CHECK: Check, the unit tests' framework.
dnl
dnl Found with pkg-config; an error without it, since `make check` is part
dnl of every build (contrib/test-all.sh).
dnl
dnl Substitutes CHECK_CFLAGS and CHECK_LIBS.
AC_DEFUN([TP_AC_CHECK], [
PKG_CHECK_MODULES([CHECK], [check >= 0.10],,
	[AC_MSG_ERROR([Check is required for the unit tests: apt-get install check])])
])
