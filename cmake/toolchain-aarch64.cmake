# SPDX-License-Identifier: Apache-2.0
#
# Cross-build eip93 for aarch64.
#
# 1. Debian multiarch (what the tests use):
#
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross libssl-dev:arm64 pkgconf:arm64
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake \
#         -DBUILD_TESTING=OFF
#   cmake --build build-aarch64
#
#   What makes it link against the arm64 libcrypto is the aarch64 pkg-config
#   (aarch64-linux-gnu-pkg-config, from pkgconf:arm64): it reads
#   /usr/lib/aarch64-linux-gnu/pkgconfig, so PkgConfig::LIBCRYPTO and the
#   modules directory (/usr/lib/aarch64-linux-gnu/ossl-modules) are arm64's.
#   The host's pkg-config would hand CMake the x86_64 libcrypto.  No sysroot:
#   multiarch headers and libraries live in the host's /usr.
#
# 2. Another toolchain with a sysroot, e.g. an OpenWrt SDK (docs/operations.md,
#    "Cross-building"; not validated by the tests):
#
#   -DEIP93_CROSS_TRIPLET=aarch64-openwrt-linux-musl
#   -DEIP93_CROSS_BIN=<sdk>/staging_dir/toolchain-.../bin     (where the gcc is)
#   -DEIP93_SYSROOT=<sdk>/staging_dir/target-...              (OpenSSL staged there)
#   -DEIP93_MODULESDIR=/usr/lib/ossl-modules
#
#   With EIP93_SYSROOT, CMAKE_SYSROOT is set and pkg-config (the triplet's if
#   there is one, else the host's) reads only the sysroot's .pc files, with
#   paths prefixed by the sysroot (PKG_CONFIG_LIBDIR, PKG_CONFIG_SYSROOT_DIR).

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

if(NOT DEFINED EIP93_CROSS_TRIPLET)
  set(EIP93_CROSS_TRIPLET aarch64-linux-gnu)
endif()
# Try-compile projects read this file too: hand them the same settings.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EIP93_CROSS_TRIPLET EIP93_CROSS_BIN EIP93_SYSROOT)

set(eip93_hints)
if(EIP93_CROSS_BIN)
  set(eip93_hints HINTS ${EIP93_CROSS_BIN} NO_DEFAULT_PATH)
endif()
find_program(CMAKE_C_COMPILER NAMES ${EIP93_CROSS_TRIPLET}-gcc ${eip93_hints} REQUIRED)

if(EIP93_SYSROOT)
  set(CMAKE_SYSROOT ${EIP93_SYSROOT})
  set(ENV{PKG_CONFIG_SYSROOT_DIR} ${EIP93_SYSROOT})
  set(ENV{PKG_CONFIG_LIBDIR} "${EIP93_SYSROOT}/usr/lib/pkgconfig:${EIP93_SYSROOT}/usr/lib/${EIP93_CROSS_TRIPLET}/pkgconfig:${EIP93_SYSROOT}/usr/share/pkgconfig")
  set(ENV{PKG_CONFIG_PATH} "")
  find_program(PKG_CONFIG_EXECUTABLE NAMES ${EIP93_CROSS_TRIPLET}-pkg-config pkg-config pkgconf REQUIRED)
  set(CMAKE_FIND_ROOT_PATH ${EIP93_SYSROOT})
  set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
  set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
else()
  find_program(PKG_CONFIG_EXECUTABLE NAMES ${EIP93_CROSS_TRIPLET}-pkg-config REQUIRED)
  # Debian multiarch: libraries and headers in the host's /usr/lib/<triplet>.
  set(CMAKE_LIBRARY_ARCHITECTURE ${EIP93_CROSS_TRIPLET})
endif()
# FindPkgConfig reads this variable, not only the cache entry.
set(PKG_CONFIG_EXECUTABLE ${PKG_CONFIG_EXECUTABLE} CACHE FILEPATH "pkg-config for the target" FORCE)

# Programs (e.g. the host `openssl` the test suite runs) come from the host.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
