# SPDX-License-Identifier: Apache-2.0
# The mipsel suite (label "mipsel"), registered only in the mipsel cross
# build (cmake/toolchain-mipsel.cmake, which sets EIP93_MIPSEL): the release
# eip93.so checked (cross-check.sh), then one qemu-system-mipsel malta guest
# (Debian bookworm's 4kc-malta kernel, the simulated EIP93 driver and
# eip93_dtcompat cross-built for it) that runs the gate on an MT7621 device
# tree, the differential tests, the engine checks and the calibration
# (guest.sh).  The host tests of the same build run under qemu-user
# (CMAKE_CROSSCOMPILING_EMULATOR); the ones that cannot are disabled below,
# each with its reason.  See test/mipsel/README.md.
if(NOT EIP93_MIPSEL OR NOT CMAKE_CROSSCOMPILING)
  return()
endif()

set(MIPSEL_SRC ${CMAKE_CURRENT_SOURCE_DIR}/mipsel)
set(RIG_DIR ${CMAKE_CURRENT_SOURCE_DIR}/rig)
set(MIPSEL_BIN ${CMAKE_CURRENT_BINARY_DIR}/mipsel)
# The sysroot is CACHE/user/sysroot (prepare-mipsel.sh): the cache is two levels up.
get_filename_component(eip93_mipsel_cache "${EIP93_SYSROOT}/../.." ABSOLUTE)
set(EIP93_MIPSEL_CACHE "${eip93_mipsel_cache}" CACHE PATH
    "Where the mipsel guest kernel, headers, busybox, openssl and sysroot are unpacked")

# The programs the guest runs (defined by guest/guest.cmake, arm64/program.cmake,
# diff/, skc/host.cmake and tools/doctor.cmake, all in this build).
include(${CMAKE_CURRENT_SOURCE_DIR}/arm64/program.cmake)

add_test(NAME mipsel_prepare COMMAND ${RIG_DIR}/prepare.sh --kernel mipsel ${EIP93_MIPSEL_CACHE})
set_tests_properties(mipsel_prepare PROPERTIES FIXTURES_SETUP mipsel_kernel
  LABELS "mipsel;guest" TIMEOUT 900)
add_test(NAME mipsel_build_modules COMMAND ${RIG_DIR}/kmod.sh --kernel mipsel ${EIP93_MIPSEL_CACHE}
  ${MIPSEL_BIN}/kmod ${CMAKE_CURRENT_SOURCE_DIR}/kmod ${MIPSEL_SRC}/kmod)
set_tests_properties(mipsel_build_modules PROPERTIES FIXTURES_SETUP mipsel_kmod
  FIXTURES_REQUIRED mipsel_kernel LABELS "mipsel;guest" TIMEOUT 600)
# The release module: MIPS32 little-endian ELF, libcrypto.so.3, no test-hook
# names, installs into the sysroot libcrypto's modules directory.
add_test(NAME mipsel_release_check COMMAND ${MIPSEL_SRC}/cross-check.sh ${PROJECT_BINARY_DIR}
  $<TARGET_FILE:eip93> $<TARGET_FILE:eip93-doctor>)
set_tests_properties(mipsel_release_check PROPERTIES FIXTURES_SETUP mipsel_release
  LABELS "mipsel" TIMEOUT 120)

# One boot: the gate (Malta's own tree, MT7621 without and with the driver,
# off switch, driver removed), eip93-diff and eip93-skc-diff against the
# default provider (and the kernel), the key check with the driver's
# counter, and the calibration table.  RUN_SERIAL: one guest, alone, under TCG.
add_test(NAME mipsel_guest_mt7621
  COMMAND ${RIG_DIR}/run.sh --arch mipsel --cache ${EIP93_MIPSEL_CACHE} --work ${MIPSEL_BIN}/work/mt7621
    --mem 256 --timeout 1500
    --module ${MIPSEL_BIN}/kmod/eip93_sim.ko --module ${MIPSEL_BIN}/kmod/eip93_dtcompat.ko
    --add $<TARGET_FILE:eip93>:/usr/lib/mipsel-linux-gnu/ossl-modules/eip93.so
    --add ${EIP93_MIPSEL_CACHE}/user/openssl:/usr/bin/openssl
    --add ${PROJECT_SOURCE_DIR}/openssl.cnf.example:/usr/lib/ssl/openssl.cnf
    --add $<TARGET_FILE:eip93-gate-check>:/usr/bin/eip93-gate-check
    --add $<TARGET_FILE:eip93-offload-check>:/usr/bin/eip93-offload-check
    --add $<TARGET_FILE:eip93-doctor>:/usr/bin/eip93-doctor
    --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff
    --add $<TARGET_FILE:eip93-skc-diff>:/usr/bin/eip93-skc-diff
    --add ${CMAKE_CURRENT_SOURCE_DIR}/arm64/lib.sh:/opt/eip93/lib.sh
    --script ${MIPSEL_SRC}/guest.sh)
set_tests_properties(mipsel_guest_mt7621 PROPERTIES LABELS "mipsel;guest" RUN_SERIAL TRUE
  FIXTURES_REQUIRED "mipsel_kernel;mipsel_kmod;mipsel_release" TIMEOUT 1600)

# Host tests that cannot run under qemu-user in this build: disabled, so that
# CTest lists them as "Not Run (Disabled)", never as passed.  Each reason is
# in test/mipsel/README.md.
include(${MIPSEL_SRC}/not-run.cmake)
