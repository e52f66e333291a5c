# SPDX-License-Identifier: Apache-2.0
# The arm64 suite (label "arm64"): the release eip93.so cross-built for
# aarch64 and run on the real gate in a qemu-system-aarch64 guest (the rig's
# run.sh --arch arm64: Debian's arm64 kernel, device trees edited to
# AN7581/EN7581/AN7583, the simulated EIP93 driver and eip93_nohwcap
# cross-built for that kernel), and the arm64 Debian packages.  The host
# checks of the packages and the doctor are in test/host/packaging.cmake.
# See test/arm64/README.md.

set(ARM64_SRC ${CMAKE_CURRENT_SOURCE_DIR}/arm64)
set(RIG_DIR ${CMAKE_CURRENT_SOURCE_DIR}/rig)
include(${PROJECT_SOURCE_DIR}/tools/doctor.cmake)

# The programs the guest runs; in the host build they are built too (and so
# linted and compiled with -Werror), in the cross build they are what
# test/arm64/cross-build.sh builds.
include(${ARM64_SRC}/program.cmake)
# The sandbox program (test/sandbox/), shared with the x86_64 guest.
include(${CMAKE_CURRENT_SOURCE_DIR}/sandbox/program.cmake)

if(CMAKE_CROSSCOMPILING)
  return()
endif()

set(EIP93_ARM64_CACHE "${EIP93_GUEST_CACHE}-arm64" CACHE PATH
    "Where the arm64 guest kernel, headers, busybox and openssl are unpacked")
set(ARM64_BIN ${CMAKE_CURRENT_BINARY_DIR}/arm64)
set(ARM64_CROSS ${ARM64_BIN}/cross)

add_test(NAME arm64_prepare COMMAND ${RIG_DIR}/prepare.sh --kernel arm64 ${EIP93_ARM64_CACHE})
set_tests_properties(arm64_prepare PROPERTIES FIXTURES_SETUP arm64_kernel
  LABELS "guest;arm64" TIMEOUT 900 RESOURCE_LOCK eip93_arm64_cache)
# The simulated driver (test/kmod) and eip93_nohwcap (test/arm64/kmod, whose
# Kbuild builds both).
add_test(NAME arm64_build_modules COMMAND ${RIG_DIR}/kmod.sh --kernel arm64 ${EIP93_ARM64_CACHE}
  ${ARM64_BIN}/kmod ${CMAKE_CURRENT_SOURCE_DIR}/kmod ${ARM64_SRC}/kmod)
set_tests_properties(arm64_build_modules PROPERTIES FIXTURES_SETUP arm64_kmod
  FIXTURES_REQUIRED arm64_kernel LABELS "guest;arm64" TIMEOUT 600)
add_test(NAME arm64_cross_build COMMAND ${ARM64_SRC}/cross-build.sh ${PROJECT_SOURCE_DIR} ${ARM64_CROSS})
set_tests_properties(arm64_cross_build PROPERTIES FIXTURES_SETUP arm64_cross
  LABELS "guest;arm64" TIMEOUT 900)

# The toolchain file's sysroot mode (OpenWrt SDK style) with an arm64 sysroot
# unpacked from Debian packages by prepare.sh.
add_test(NAME arm64_cross_sysroot COMMAND ${ARM64_SRC}/cross-sysroot.sh ${PROJECT_SOURCE_DIR}
  ${ARM64_BIN}/cross-sysroot ${EIP93_ARM64_CACHE})
set_tests_properties(arm64_cross_sysroot PROPERTIES LABELS "guest;arm64" FIXTURES_REQUIRED arm64_kernel
  TIMEOUT 600)

# The guest's files: the release module in the arm64 multiarch modules
# directory (where Debian's arm64 openssl looks by default) and an
# openssl.cnf that activates it, as an operator would install them.
set(ARM64_COMMON
  --cache ${EIP93_ARM64_CACHE}
  --module ${ARM64_BIN}/kmod/eip93_sim.ko
  --module ${ARM64_BIN}/kmod/eip93_nohwcap.ko
  --add ${ARM64_CROSS}/eip93.so:/usr/lib/aarch64-linux-gnu/ossl-modules/eip93.so
  --add ${EIP93_ARM64_CACHE}/user/openssl:/usr/bin/openssl
  --add ${PROJECT_SOURCE_DIR}/openssl.cnf.example:/usr/lib/ssl/openssl.cnf
  --add ${ARM64_CROSS}/test/eip93-gate-check:/usr/bin/eip93-gate-check
  --add ${ARM64_CROSS}/test/eip93-offload-check:/usr/bin/eip93-offload-check
  --add ${ARM64_CROSS}/eip93-doctor:/usr/bin/eip93-doctor
  --add ${ARM64_SRC}/lib.sh:/opt/eip93/lib.sh)

# eip93_arm64_test(<name> <compatible> <script> [run.sh arguments...])
function(eip93_arm64_test name compatible script)
  add_test(NAME arm64_${name}
    COMMAND ${RIG_DIR}/run.sh --arch arm64 ${ARM64_COMMON} --work ${ARM64_BIN}/work/${name}
            --compatible ${compatible} --script ${script} ${ARGN})
  set_tests_properties(arm64_${name} PROPERTIES LABELS "guest;arm64"
    FIXTURES_REQUIRED "arm64_kernel;arm64_kmod;arm64_cross" TIMEOUT 400)
endfunction()

# AN7581: every gate fact, the key check and TLS 1.3 with the driver's counter.
eip93_arm64_test(gate_an7581 airoha,an7581 ${ARM64_SRC}/gate.sh --timeout 360)
# The other device trees: EN7581 on, AN7583 off, QEMU's own (not Airoha) off.
eip93_arm64_test(gate_en7581 airoha,en7581 ${ARM64_SRC}/dt-case.sh --env EXPECT=enabled)
eip93_arm64_test(gate_an7583 airoha,an7583 ${ARM64_SRC}/dt-case.sh --env EXPECT=an7583)
eip93_arm64_test(gate_virt virt ${ARM64_SRC}/dt-case.sh --env EXPECT=other)
# Sandboxes on the release build and the real gate: children under
# an OpenSSH-style seccomp filter stay in software (reason "seccomp"), the
# unfiltered control reaches the driver, the filter kills a direct
# socket(AF_ALG).
eip93_arm64_test(sandbox_seccomp airoha,an7581 ${ARM64_SRC}/sandbox.sh
  --add ${ARM64_CROSS}/test/eip93-seccomp-check:/usr/bin/eip93-seccomp-check)
set_tests_properties(arm64_sandbox_seccomp PROPERTIES LABELS "guest;arm64;sandbox")

# The Debian packages installed by the real dpkg into the target's files.
add_test(NAME arm64_deb COMMAND ${ARM64_SRC}/deb-guest.sh ${ARM64_CROSS} ${EIP93_ARM64_CACHE}
  ${ARM64_BIN}/kmod ${ARM64_BIN}/work/deb)
set_tests_properties(arm64_deb PROPERTIES LABELS "guest;arm64;packaging"
  FIXTURES_REQUIRED "arm64_kernel;arm64_kmod;arm64_cross" TIMEOUT 400)

# The cross-built Debian packages, checked on the build machine (the arm64
# cross build is its input; the native packages are host tests:
# test/host/packaging.cmake).
add_test(NAME packaging_debian_arm64 COMMAND ${PROJECT_SOURCE_DIR}/packaging/debian/check.sh
  ${ARM64_CROSS} ${OPENSSL_CLI} foreign)
set_tests_properties(packaging_debian_arm64 PROPERTIES LABELS "packaging;arm64"
  FIXTURES_REQUIRED arm64_cross TIMEOUT 300)
