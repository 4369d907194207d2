dnl tp_slurm.m4 - TP_AC_SLURM: find what the Slurm plugins are built against.
dnl
dnl  --with-slurm-version=22.05|24.11|26.05
dnl                            the Slurm release the plugins are for (default
dnl                            22.05: Debian 12's 22.05.8; 24.11: Debian 13's
dnl                            24.11.5; 26.05: 26.05.3 built from its release
dnl                            source, contrib/slurm-source.sh).  One build
dnl                            tree per version; the core and the simulator
dnl                            are the same in all.  22.05 builds
dnl                            select/fattree, select/torus and sched/topo;
dnl                            24.11 and 26.05 build topology/fattree,
dnl                            topology/torus and sched/topo.
dnl  --with-slurm-source=DIR|TARBALL
dnl                            26.05: a site's own source tree or a release
dnl                            tarball (default: the one contrib/slurm-source.sh
dnl                            finds); a tree of another 26.05 micro release
dnl                            builds the plugins for that release.
dnl  --with-slurm-headers=DIR  Slurm's source tree (DIR/slurm/slurm_version.h,
dnl                            DIR/src/common/*.h, DIR/src/slurmctld/*.h and
dnl                            DIR/config.h), as contrib/slurm-headers.sh
dnl                            (22.05, 24.11) or contrib/slurm-source.sh
dnl                            (26.05) prepares it.  Default ("auto"): ask
dnl                            that script (--check) for its cache directory
dnl                            ($HOME/.cache/slurm-topo/slurm-VERSION); it
dnl                            never downloads or installs from configure
dnl                            (contrib/build.sh prepares it first); when it
dnl                            is not prepared, the plugins are not built
dnl                            (warning).
dnl                            An explicit DIR that does not fit is an error.
dnl  --without-slurm-headers   build no plugins.
dnl  --with-slurm-libdir=DIR   where libslurmfull.so and Slurm's own plugins
dnl                            live (default /usr/lib/x86_64-linux-gnu/slurm-wlm;
dnl                            22.05 only: the unit tests of the plugins'
dnl                            translation code link it).
dnl  --with-plugindir=DIR      where `make install` puts our plugins
dnl                            (default $libdir/slurm-topo).  Point Slurm's
dnl                            PluginDir at "DIR:SLURM_LIBDIR".  Without
dnl                            installing, the built plugins are in
dnl                            BUILDDIR/plugins/.libs.
dnl
dnl Substitutes SLURM_SERIES, SLURM_HEADERS, SLURM_CPPFLAGS, SLURM_LIBDIR,
dnl SLURM_LIBS, plugindir; defines AM_CONDITIONALs HAVE_SLURM, SLURM_2205,
dnl SLURM_2411, SLURM_2605 and SLURM_TOPOLOGY (24.11 and later).
AC_DEFUN([TP_AC_SLURM], [
AC_ARG_WITH([slurm-version],
	[AS_HELP_STRING([--with-slurm-version=22.05|24.11|26.05],
		[the Slurm release the plugins are built for (default 22.05)])],
	[], [with_slurm_version=22.05])
AC_ARG_WITH([slurm-source],
	[AS_HELP_STRING([--with-slurm-source=DIR|TARBALL],
		[26.05: the Slurm source the plugins are built against, a site's own
		 tree or a release tarball (default: the one contrib/slurm-source.sh
		 finds, which prepares it)])],
	[], [with_slurm_source=])
AS_CASE([$with_slurm_version],
  [22.05], [SLURM_WANT_VERSION=22.05.8 SLURM_WANT_NUMBER=0x160508
	    SLURM_MARKER=src/common/select.h],
  [24.11], [SLURM_WANT_VERSION=24.11.5 SLURM_WANT_NUMBER=0x180b05
	    SLURM_MARKER=src/interfaces/topology.h],
  [26.05], [SLURM_WANT_VERSION=26.05.3 SLURM_WANT_NUMBER=0x1a0503
	    SLURM_MARKER=src/interfaces/topology.h],
  [AC_MSG_ERROR([--with-slurm-version=$with_slurm_version: known versions are 22.05, 24.11 and 26.05])])
dnl A site's own 26.05 tree may be another micro release: the plugins are
dnl built for whatever release that tree is (its slurm_version.h).
AS_IF([test "$with_slurm_version" = 26.05 && test -n "$with_slurm_source" &&
       test -f "$with_slurm_source/slurm/slurm_version.h"],
      [SLURM_WANT_NUMBER=`sed -n 's/^#define SLURM_VERSION_NUMBER //p' "$with_slurm_source/slurm/slurm_version.h"`
       SLURM_WANT_VERSION=`sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$with_slurm_source/slurm/slurm_version.h"`])
SLURM_SERIES=$with_slurm_version

AC_ARG_WITH([slurm-headers],
	[AS_HELP_STRING([--with-slurm-headers=DIR],
		[Slurm source headers prepared by contrib/slurm-headers.sh
		 (default: run that script, which caches them in
		 $HOME/.cache/slurm-topo/slurm-VERSION); --without-slurm-headers
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
     dnl --check: configure never downloads or installs anything;
     dnl contrib/build.sh prepares the headers before it runs configure.
     AS_IF([test "$SLURM_SERIES" = 26.05],
	   [SLURM_HEADERS=`$SHELL "$srcdir/contrib/slurm-source.sh" --check $with_slurm_source 2>&AS_MESSAGE_LOG_FD` ||
		SLURM_HEADERS=],
	   [SLURM_HEADERS=`$SHELL "$srcdir/contrib/slurm-headers.sh" --check --version $SLURM_SERIES 2>&AS_MESSAGE_LOG_FD` ||
		SLURM_HEADERS=])
     AS_IF([test -n "$SLURM_HEADERS"],
	   [AC_MSG_RESULT([$SLURM_HEADERS])],
	   [AC_MSG_RESULT([no])
	    AC_MSG_WARN([Slurm $SLURM_WANT_VERSION's headers are not prepared (run contrib/slurm-headers.sh --version $SLURM_SERIES; see config.log): the Slurm plugins will not be built])])],
  [AS_IF([test -d "$with_slurm_headers"],
	 [SLURM_HEADERS=`cd "$with_slurm_headers" && pwd`],
	 [AC_MSG_ERROR([--with-slurm-headers=$with_slurm_headers: no such directory])])])

AS_IF([test -n "$SLURM_HEADERS"], [
  AC_MSG_CHECKING([that $SLURM_HEADERS is Slurm $SLURM_WANT_VERSION])
  AS_IF([grep "^#define SLURM_VERSION_NUMBER $SLURM_WANT_NUMBER\$" \
	     "$SLURM_HEADERS/slurm/slurm_version.h" >/dev/null 2>&1 &&
	 test -f "$SLURM_HEADERS/$SLURM_MARKER" &&
	 test -f "$SLURM_HEADERS/src/slurmctld/slurmctld.h" &&
	 test -f "$SLURM_HEADERS/config.h"],
	[AC_MSG_RESULT([yes])],
	[AC_MSG_RESULT([no])
	 AC_MSG_ERROR([$SLURM_HEADERS: not Slurm $SLURM_WANT_VERSION source headers (need slurm/slurm_version.h with SLURM_VERSION_NUMBER $SLURM_WANT_NUMBER, $SLURM_MARKER, src/slurmctld/slurmctld.h, config.h); run contrib/slurm-headers.sh --version $SLURM_SERIES])])

  dnl 22.05: the installed library must be the same release as the
  dnl headers (plugin_version is checked to the micro level at load time;
  dnl the plugins' unit tests link it).  24.11's daemons and library live in
  dnl a Debian 13 root file system (contrib/cluster/slurm-24.11.sh), not here.
  AS_IF([test "$SLURM_SERIES" = 22.05], [
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
  ])
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
#include "$SLURM_MARKER"
#include "src/slurmctld/slurmctld.h"
#if SLURM_VERSION_NUMBER != $SLURM_WANT_NUMBER
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
AS_IF([test "$SLURM_SERIES" = 22.05], [], [SLURM_LIBS=])
AC_SUBST([SLURM_SERIES])
AC_SUBST([SLURM_HEADERS])
AC_SUBST([SLURM_CPPFLAGS])
AC_SUBST([SLURM_LIBDIR])
AC_SUBST([SLURM_LIBS])
AM_CONDITIONAL([HAVE_SLURM], [test "$have_slurm" = yes])
AM_CONDITIONAL([SLURM_2205], [test "$have_slurm" = yes && test "$SLURM_SERIES" = 22.05])
AM_CONDITIONAL([SLURM_2411], [test "$have_slurm" = yes && test "$SLURM_SERIES" = 24.11])
AM_CONDITIONAL([SLURM_2605], [test "$have_slurm" = yes && test "$SLURM_SERIES" = 26.05])
dnl Releases whose placement is a topology plugin under select/cons_tres.
AM_CONDITIONAL([SLURM_TOPOLOGY], [test "$have_slurm" = yes && test "$SLURM_SERIES" != 22.05])
])
