dnl slurm.m4 - find what the Slurm 22.05.8 plugins are built against.
dnl Included by configure.ac (m4_sinclude) as top-level code, not a macro.
dnl
dnl  --with-slurm-headers=DIR  Slurm's source headers (DIR/slurm/slurm_version.h,
dnl                            DIR/src/common/*.h, DIR/src/slurmctld/*.h and
dnl                            DIR/config.h), as contrib/slurm-headers.sh
dnl                            prepares them.  Default ("auto"): run that
dnl                            script, which prints its cache directory
dnl                            ($HOME/.cache/slurm-topo/slurm-22.05.8) and
dnl                            returns at once when it is already prepared;
dnl                            if it fails, the plugins are not built (warning).
dnl                            An explicit DIR that does not fit is an error.
dnl  --without-slurm-headers   build no plugins.
dnl  --with-slurm-libdir=DIR   where libslurmfull.so and Slurm's own plugins
dnl                            live (default /usr/lib/x86_64-linux-gnu/slurm-wlm).
dnl  --with-plugindir=DIR      where `make install` puts our plugins
dnl                            (default $libdir/slurm-topo).  Point Slurm's
dnl                            PluginDir at "DIR:SLURM_LIBDIR".  Without
dnl                            installing, the built plugins are in
dnl                            BUILDDIR/plugins/.libs.
dnl
dnl Substitutes SLURM_HEADERS, SLURM_CPPFLAGS, SLURM_LIBDIR, SLURM_LIBS,
dnl plugindir; defines AM_CONDITIONAL HAVE_SLURM.

SLURM_WANT_VERSION=22.05.8
SLURM_WANT_NUMBER=0x160508

AC_ARG_WITH([slurm-headers],
	[AS_HELP_STRING([--with-slurm-headers=DIR],
		[Slurm 22.05.8 source headers prepared by contrib/slurm-headers.sh
		 (default: run that script, which caches them in
		 $HOME/.cache/slurm-topo/slurm-22.05.8); --without-slurm-headers
		 builds no plugins])],
	[], [with_slurm_headers=auto])
AC_ARG_WITH([slurm-libdir],
	[AS_HELP_STRING([--with-slurm-libdir=DIR],
		[directory of libslurmfull.so and Slurm's plugins
		 (default: /usr/lib/x86_64-linux-gnu/slurm-wlm)])],
	[], [with_slurm_libdir=/usr/lib/x86_64-linux-gnu/slurm-wlm])
AC_ARG_WITH([plugindir],
	[AS_HELP_STRING([--with-plugindir=DIR],
		[install the Slurm plugins in DIR (default: LIBDIR/slurm-topo)])],
	[plugindir=$withval], [plugindir='${libdir}/slurm-topo'])
AC_SUBST([plugindir])

have_slurm=no
SLURM_HEADERS=
AS_CASE([$with_slurm_headers],
  [no], [AC_MSG_NOTICE([Slurm plugins disabled (--without-slurm-headers)])],
  [auto|yes],
    [AC_MSG_CHECKING([for Slurm $SLURM_WANT_VERSION headers (contrib/slurm-headers.sh)])
     dnl The script prints the directory on stdout, progress on stderr.
     SLURM_HEADERS=`$SHELL "$srcdir/contrib/slurm-headers.sh" 2>&AS_MESSAGE_LOG_FD` ||
	SLURM_HEADERS=
     AS_IF([test -n "$SLURM_HEADERS"],
	   [AC_MSG_RESULT([$SLURM_HEADERS])],
	   [AC_MSG_RESULT([no])
	    AC_MSG_WARN([contrib/slurm-headers.sh failed (see config.log): the Slurm plugins will not be built])])],
  [AS_IF([test -d "$with_slurm_headers"],
	 [SLURM_HEADERS=`cd "$with_slurm_headers" && pwd`],
	 [AC_MSG_ERROR([--with-slurm-headers=$with_slurm_headers: no such directory])])])

AS_IF([test -n "$SLURM_HEADERS"], [
  AC_MSG_CHECKING([that $SLURM_HEADERS is Slurm $SLURM_WANT_VERSION])
  AS_IF([grep "^#define SLURM_VERSION_NUMBER $SLURM_WANT_NUMBER\$" \
	     "$SLURM_HEADERS/slurm/slurm_version.h" >/dev/null 2>&1 &&
	 test -f "$SLURM_HEADERS/src/common/select.h" &&
	 test -f "$SLURM_HEADERS/src/slurmctld/slurmctld.h" &&
	 test -f "$SLURM_HEADERS/config.h"],
	[AC_MSG_RESULT([yes])],
	[AC_MSG_RESULT([no])
	 AC_MSG_ERROR([$SLURM_HEADERS: not Slurm $SLURM_WANT_VERSION source headers (need slurm/slurm_version.h with SLURM_VERSION_NUMBER $SLURM_WANT_NUMBER, src/common/select.h, src/slurmctld/slurmctld.h, config.h); run contrib/slurm-headers.sh])])

  dnl The installed library must be the same release as the headers:
  dnl plugin_version is checked to the micro level at load time.
  AC_MSG_CHECKING([that /usr/include/slurm is Slurm $SLURM_WANT_VERSION])
  AS_IF([grep "^#define SLURM_VERSION_NUMBER $SLURM_WANT_NUMBER\$" \
	     /usr/include/slurm/slurm_version.h >/dev/null 2>&1],
	[AC_MSG_RESULT([yes])],
	[AC_MSG_RESULT([no])
	 AC_MSG_ERROR([installed Slurm is not $SLURM_WANT_VERSION: apt-get install libslurm-dev=22.05.8*])])

  AC_MSG_CHECKING([for libslurmfull.so in $with_slurm_libdir])
  AS_IF([test -f "$with_slurm_libdir/libslurmfull.so" &&
	 test -f "$with_slurm_libdir/select_linear.so"],
	[AC_MSG_RESULT([yes])],
	[AC_MSG_RESULT([no])
	 AC_MSG_ERROR([$with_slurm_libdir has no libslurmfull.so/select_linear.so: apt-get install slurm-wlm-basic-plugins, or --with-slurm-libdir])])
  SLURM_LIBDIR=$with_slurm_libdir

  dnl Compile one file that uses the internal headers, as the plugins will.
  dnl -DNDEBUG matters: without it xassert() references verify_lock(),
  dnl which only slurmctld has.
  SLURM_CPPFLAGS="-I$SLURM_HEADERS -I$SLURM_HEADERS/src/common -pthread -DNDEBUG"
  save_CPPFLAGS=$CPPFLAGS
  CPPFLAGS="$SLURM_CPPFLAGS $CPPFLAGS"
  AC_MSG_CHECKING([whether Slurm's internal headers compile])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[
#include "config.h"
#include "src/common/bitstring.h"
#include "src/common/select.h"
#include "src/slurmctld/slurmctld.h"
#if SLURM_VERSION_NUMBER != 0x160508
#error wrong Slurm version
#endif
]], [[bitstr_t *b = bit_alloc(8); (void)b; return SELECT_MODE_WILL_RUN;]])],
	[AC_MSG_RESULT([yes])],
	[AC_MSG_RESULT([no])
	 AC_MSG_ERROR([Slurm's internal headers in $SLURM_HEADERS do not compile (see config.log)])])
  CPPFLAGS=$save_CPPFLAGS
  have_slurm=yes
])

dnl Unit tests of the plugins' translation code link libslurmfull for
dnl bitstr_t; plugins themselves do not (the daemons provide it).
SLURM_LIBS="-L$SLURM_LIBDIR -lslurmfull -Wl,-rpath,$SLURM_LIBDIR"
AS_IF([test "$have_slurm" = yes], [], [SLURM_LIBS= ; SLURM_CPPFLAGS=])
AC_SUBST([SLURM_HEADERS])
AC_SUBST([SLURM_CPPFLAGS])
AC_SUBST([SLURM_LIBDIR])
AC_SUBST([SLURM_LIBS])
AM_CONDITIONAL([HAVE_SLURM], [test "$have_slurm" = yes])
