# SPDX-License-Identifier: Apache-2.0
#
# Cross-build eip93 for 32-bit MIPS little-endian (mipsel: the MediaTek
# MT7621's MIPS 1004Kc) with Debian's gcc-mipsel-linux-gnu, against a mipsel
# sysroot: Debian bookworm's mipsel packages (libc6-dev, libssl-dev,
# linux-libc-dev, ...) unpacked, never installed, by
# `test/rig/prepare.sh --kernel mipsel CACHE` into CACHE/user/sysroot:
#
#   test/rig/prepare.sh --kernel mipsel ~/.cache/eip93/guest-mipsel
#   cmake -S . -B build-mipsel -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-mipsel.cmake \
#         -DEIP93_SYSROOT=$HOME/.cache/eip93/guest-mipsel/user/sysroot
#   cmake --build build-mipsel
#
# (test/mipsel/README.md; scripts/test.sh's mipsel stage).  Another sysroot,
# e.g. an OpenWrt SDK's staging directory (musl, OpenWrt's OpenSSL), takes
# -DEIP93_CROSS_TRIPLET=mipsel-openwrt-linux-musl -DEIP93_CROSS_BIN=<its bin>
# -DEIP93_SYSROOT=<staging_dir/target-...> -DEIP93_MODULESDIR=/usr/lib/ossl-modules
# (not validated by the tests).
#
# pkg-config reads only the sysroot's .pc files and prefixes their paths with
# the sysroot (PKG_CONFIG_LIBDIR, PKG_CONFIG_SYSROOT_DIR), so libcrypto and
# the modules directory are the target's; CMake finds headers and libraries
# only there.  Programs the build runs (the tests) run under QEMU's user-mode
# emulator, qemu-mipsel-static -L <sysroot> (CMAKE_CROSSCOMPILING_EMULATOR),
# when it is installed.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR mips)
set(EIP93_MIPSEL ON)

if(NOT DEFINED EIP93_CROSS_TRIPLET)
  set(EIP93_CROSS_TRIPLET mipsel-linux-gnu)
endif()
# Try-compile projects read this file too: hand them the same settings.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EIP93_CROSS_TRIPLET EIP93_CROSS_BIN EIP93_SYSROOT)

# try_compile projects (CheckIPOSupported's) may not see the cache: hand it on
# through the environment of this CMake process.
if(NOT EIP93_SYSROOT AND DEFINED ENV{EIP93_SYSROOT})
  set(EIP93_SYSROOT "$ENV{EIP93_SYSROOT}")
endif()
if(NOT EIP93_SYSROOT)
  message(FATAL_ERROR "toolchain-mipsel: set -DEIP93_SYSROOT=<mipsel sysroot> "
          "(test/rig/prepare.sh --kernel mipsel CACHE unpacks one into CACHE/user/sysroot)")
endif()
if(NOT EXISTS "${EIP93_SYSROOT}/usr/include")
  message(FATAL_ERROR "toolchain-mipsel: ${EIP93_SYSROOT} is not a sysroot (no usr/include)")
endif()

set(eip93_hints)
if(EIP93_CROSS_BIN)
  set(eip93_hints HINTS ${EIP93_CROSS_BIN} NO_DEFAULT_PATH)
endif()
find_program(CMAKE_C_COMPILER NAMES ${EIP93_CROSS_TRIPLET}-gcc ${eip93_hints} REQUIRED)
# gcc's LTO plugin needs the triplet's gcc-ar and gcc-ranlib.
find_program(CMAKE_C_COMPILER_AR NAMES ${EIP93_CROSS_TRIPLET}-gcc-ar ${eip93_hints})
find_program(CMAKE_C_COMPILER_RANLIB NAMES ${EIP93_CROSS_TRIPLET}-gcc-ranlib ${eip93_hints})

set(ENV{EIP93_SYSROOT} "${EIP93_SYSROOT}")
set(CMAKE_SYSROOT ${EIP93_SYSROOT})
set(ENV{PKG_CONFIG_SYSROOT_DIR} ${EIP93_SYSROOT})
set(ENV{PKG_CONFIG_LIBDIR} "${EIP93_SYSROOT}/usr/lib/pkgconfig:${EIP93_SYSROOT}/usr/lib/${EIP93_CROSS_TRIPLET}/pkgconfig:${EIP93_SYSROOT}/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf REQUIRED)
set(PKG_CONFIG_EXECUTABLE ${PKG_CONFIG_EXECUTABLE} CACHE FILEPATH "pkg-config (reads the sysroot's .pc files)" FORCE)
# The modules directory as the target sees it: pkg-config with
# PKG_CONFIG_SYSROOT_DIR prefixes it with the sysroot, so ask without it (and
# replace a cached value that has the sysroot's prefix).
set(eip93_prefixed -1)
if(DEFINED CACHE{EIP93_MODULESDIR})
  string(FIND "$CACHE{EIP93_MODULESDIR}" "${EIP93_SYSROOT}/" eip93_prefixed)
endif()
if(NOT DEFINED CACHE{EIP93_MODULESDIR} OR eip93_prefixed EQUAL 0)
  execute_process(COMMAND env -u PKG_CONFIG_SYSROOT_DIR ${PKG_CONFIG_EXECUTABLE} --variable=modulesdir libcrypto
                  OUTPUT_VARIABLE eip93_modulesdir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE eip93_rc)
  if(eip93_rc EQUAL 0 AND eip93_modulesdir)
    set(EIP93_MODULESDIR "${eip93_modulesdir}" CACHE PATH
        "Where eip93.so is installed (the target's OpenSSL modules directory)" FORCE)
  endif()
endif()
set(CMAKE_FIND_ROOT_PATH ${EIP93_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Programs (the host `openssl`, the scripts' tools) come from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)

# Test programs run under QEMU's user-mode emulator with the sysroot's loader and libraries.
find_program(EIP93_QEMU_USER NAMES qemu-mipsel-static qemu-mipsel)
if(EIP93_QEMU_USER)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${EIP93_QEMU_USER};-L;${EIP93_SYSROOT}")
  # The host tests' `openssl`: the target's, under the emulator, where
  # prepare-mipsel.sh put a wrapper beside the sysroot.
  if(EXISTS "${EIP93_SYSROOT}/../bin/openssl")
    get_filename_component(eip93_cli "${EIP93_SYSROOT}/../bin/openssl" ABSOLUTE)
    set(OPENSSL_CLI "${eip93_cli}" CACHE FILEPATH "the openssl command the host tests run")
  endif()
endif()
