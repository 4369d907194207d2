dnl tp_zlib.m4 - TP_AC_ZLIB: zlib, which the simulator's trace reader uses
dnl to read .swf.gz traces (libtoporeplay; never linked by a plugin).
dnl
dnl Substitutes Z_LIBS; an error without it.
AC_DEFUN([TP_AC_ZLIB], [
AC_CHECK_LIB([z], [gzopen], [Z_LIBS=-lz],
	     [AC_MSG_ERROR([zlib is required to read .swf.gz traces: apt-get install zlib1g-dev])])
AC_SUBST([Z_LIBS])
])
