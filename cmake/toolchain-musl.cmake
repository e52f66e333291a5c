# SPDX-License-Identifier: Apache-2.0
#
# Build eip93 and its host tests with musl on an x86-64 Debian host (musl-gcc
# from Debian's musl-tools and musl-dev), against a libcrypto built with musl
# (scripts/openssl-build.sh openwrt|openwrt-sf: OpenWrt's OpenSSL options):
#
#   d=$(scripts/openssl-build.sh openwrt ~/.cache/eip93)
#   PKG_CONFIG_PATH=$d/prefix/lib/pkgconfig cmake -S . -B build-openwrt \
#     -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-musl.cmake -DEIP93_GUEST_TESTS=OFF \
#     -DOPENSSL_CLI=$d/prefix/bin/openssl
#
# (scripts/test.sh, musl_series).  Not a cross build: the programs run on the
# host through musl's loader, /lib/ld-musl-x86_64.so.1.
#
# Nothing of glibc may reach a musl build:
# - headers: musl-gcc's include path has musl's headers and not /usr/include,
#   so the headers the provider and the tests take from there that belong to
#   no C library come from a directory of links to those folders of
#   /usr/include alone, passed with -isystem and searched by find_path: the
#   kernel's UAPI (linux, asm, asm-generic: linux/if_alg.h, linux/seccomp.h,
#   the cryptodev ABI's linux/ioctl.h) and valgrind's client requests
#   (valgrind/callgrind.h, test/icount); /usr/include itself and the
#   multiarch library folders are left out of CMake's find_path and
#   find_library (CMAKE_IGNORE_PATH);
# - libraries: pkg-config reads only PKG_CONFIG_PATH (the musl libcrypto's
#   prefix) and musl's own folder (PKG_CONFIG_LIBDIR; Debian's musl-dev ships
#   no .pc files, so it is empty), never /usr/lib/x86_64-linux-gnu/pkgconfig,
#   so a library built for glibc (libkcapi) is not found
#   rather than linked into a musl program.
# EIP93_MUSL is set for the project's CMake files: what cannot be built for
# musl says so there (message) instead of failing the configuration.

set(EIP93_MUSL ON)
find_program(CMAKE_C_COMPILER NAMES musl-gcc REQUIRED)
# musl-gcc is the system gcc with musl's specs: its LTO plugin's ar and ranlib are gcc's
# (CMake would look for musl-gcc-ar and find none: no link-time optimisation, unlike gcc).
find_program(CMAKE_C_COMPILER_AR NAMES gcc-ar REQUIRED)
find_program(CMAKE_C_COMPILER_RANLIB NAMES gcc-ranlib REQUIRED)
# Try-compile projects read this file too: they reuse the top build's links.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES EIP93_MUSL_INCLUDE)
if(NOT EIP93_MUSL_INCLUDE)
  set(EIP93_MUSL_INCLUDE "${CMAKE_BINARY_DIR}/musl-include")
endif()
execute_process(COMMAND gcc -print-multiarch OUTPUT_VARIABLE eip93_multiarch
                OUTPUT_STRIP_TRAILING_WHITESPACE)
file(MAKE_DIRECTORY "${EIP93_MUSL_INCLUDE}")
foreach(link "linux=/usr/include/linux" "asm=/usr/include/${eip93_multiarch}/asm"
             "asm-generic=/usr/include/asm-generic" "valgrind=/usr/include/valgrind")
  string(REPLACE "=" ";" link "${link}")
  list(GET link 0 name)
  list(GET link 1 target)
  if(NOT IS_DIRECTORY "${target}" AND NOT name STREQUAL "valgrind")  # test/icount says so
    message(FATAL_ERROR "toolchain-musl: ${target} missing (apt-get install linux-libc-dev)")
  endif()
  if(IS_DIRECTORY "${target}" AND NOT IS_SYMLINK "${EIP93_MUSL_INCLUDE}/${name}")
    file(CREATE_LINK "${target}" "${EIP93_MUSL_INCLUDE}/${name}" SYMBOLIC)
  endif()
endforeach()
set(CMAKE_C_FLAGS_INIT "-isystem \"${EIP93_MUSL_INCLUDE}\"")
list(APPEND CMAKE_INCLUDE_PATH "${EIP93_MUSL_INCLUDE}")

string(REPLACE "-gnu" "-musl" eip93_musl_arch "${eip93_multiarch}")
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${eip93_musl_arch}/pkgconfig")
set(CMAKE_IGNORE_PATH /usr/include /usr/local/include "/usr/include/${eip93_multiarch}"
    "/usr/lib/${eip93_multiarch}" "/lib/${eip93_multiarch}" /usr/lib /lib /usr/local/lib)
