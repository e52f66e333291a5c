# SPDX-License-Identifier: Apache-2.0
# Guest tests: each boots Debian's x86_64 kernel under QEMU (TCG) with the
# AF_ALG modules, and runs one script in it, with the rig (test/rig/: run.sh,
# prepare.sh, kmod.sh).  Two fixtures come first: the kernel image
# (downloaded from Debian's archive and unpacked, never installed) and the
# simulated EIP93 driver built against its headers.
# For the suites: RIG_DIR (the rig), GUEST_DIR (the x86_64 guest scripts),
# GUEST_COMMON (run.sh arguments every x86_64 guest gets) and
# eip93_guest_test().

set(EIP93_GUEST_CACHE "${PROJECT_BINARY_DIR}/guest-cache" CACHE PATH
    "Where the guest kernel is downloaded and unpacked (reused between builds)")
set(RIG_DIR ${CMAKE_CURRENT_SOURCE_DIR}/rig)
set(GUEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/guest)
set(GUEST_WORK ${CMAKE_CURRENT_BINARY_DIR}/guest-work)
set(GUEST_KMOD ${CMAKE_CURRENT_BINARY_DIR}/kmod)

add_test(NAME guest_prepare_kernel COMMAND ${RIG_DIR}/prepare.sh --kernel 6.1 ${EIP93_GUEST_CACHE})
set_tests_properties(guest_prepare_kernel PROPERTIES FIXTURES_SETUP guest_kernel
  LABELS "guest" TIMEOUT 900)
# (Against the host's linux-headers of the same ABI: needs no kernel fixture.)
add_test(NAME guest_build_driver COMMAND ${RIG_DIR}/kmod.sh --kernel 6.1 ${EIP93_GUEST_CACHE} ${GUEST_KMOD}
  ${CMAKE_CURRENT_SOURCE_DIR}/kmod)
set_tests_properties(guest_build_driver PROPERTIES FIXTURES_SETUP guest_driver
  LABELS "guest" TIMEOUT 600)

add_executable(eip93-gate-check guest/gate-check.c)
eip93_target_flags(eip93-gate-check)
target_link_libraries(eip93-gate-check PRIVATE PkgConfig::LIBCRYPTO)

# The rig's own AF_ALG client (selftest.sh): checks the simulated driver
# against OpenSSL independently of the provider.
add_executable(eip93-afalg-check guest/selftest/afalg_check.c)
eip93_target_flags(eip93-afalg-check)
target_link_libraries(eip93-afalg-check PRIVATE PkgConfig::LIBCRYPTO)

# The simulated driver's CBC and ECB algorithms and modelled driver bugs
# against the kernel's generic templates (sim-modes.sh), AF_ALG alone.
add_executable(eip93-sim-modes-check guest/sim-modes/modes_check.c guest/sim-modes/modes_bugs.c)
eip93_target_flags(eip93-sim-modes-check)

find_program(OPENSSL_CLI openssl REQUIRED)

# What every guest gets: both builds of the provider, the openssl command,
# the test programs, the scripts' shared library (guest/lib.sh), the
# device-tree fixtures and the simulated driver.
set(GUEST_COMMON
  --cache ${EIP93_GUEST_CACHE}
  --module ${GUEST_KMOD}/eip93_sim.ko
  --add $<TARGET_FILE:eip93>:/opt/eip93/release/eip93.so
  --add $<TARGET_FILE:eip93_hooks>:/opt/eip93/hooks/eip93.so
  --add ${OPENSSL_CLI}:/usr/bin/openssl
  --add $<TARGET_FILE:eip93-gate-check>:/usr/bin/eip93-gate-check
  --add ${GUEST_DIR}/lib.sh:/opt/eip93/guest-lib.sh
  --add-dir ${CMAKE_CURRENT_SOURCE_DIR}/data:/opt/eip93/data)

# eip93_guest_test(<name> <script> [extra run.sh arguments...])
function(eip93_guest_test name script)
  add_test(NAME guest_${name}
    COMMAND ${RIG_DIR}/run.sh ${GUEST_COMMON} --work ${GUEST_WORK}/${name}
            --script ${script} ${ARGN})
  set_tests_properties(guest_${name} PROPERTIES LABELS "guest"
    FIXTURES_REQUIRED "guest_kernel;guest_driver" TIMEOUT 400)
endfunction()

# eip93_guest_programs(<prefix> <program>:<guest path>...): the build
# machine's programs (from /usr/sbin or /usr/bin) for a guest: <prefix>_ADD,
# run.sh's --add arguments of those found; <prefix>_MISSING, the others.
function(eip93_guest_programs prefix)
  set(add "")
  set(missing "")
  foreach(pair ${ARGN})
    string(REPLACE ":" ";" pair "${pair}")
    list(GET pair 0 prog)
    list(GET pair 1 dest)
    find_program(found_${prog} ${prog} PATHS /usr/sbin /usr/bin NO_CACHE)
    if(found_${prog})
      list(APPEND add --add ${found_${prog}}:${dest})
    else()
      list(APPEND missing ${prog})
    endif()
  endforeach()
  set(${prefix}_ADD ${add} PARENT_SCOPE)
  set(${prefix}_MISSING ${missing} PARENT_SCOPE)
endfunction()

# A sanitized build: only the engine path under ASan+UBSan (the differential
# program and the hooks module, both sanitized; the openssl command cannot
# load a sanitized module, so the other guest tests stay in the plain build).
if(EIP93_SANITIZE)
  eip93_guest_test(differential_asan ${GUEST_DIR}/differential.sh
    --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff
    --add $<TARGET_FILE:eip93-skc-diff>:/usr/bin/eip93-skc-diff --timeout 600 --mem 1024
    --env EIP93_DIFF_CASES=3000 --env EIP93_DIFF_KGCM_CASES=1000
    --env SKC_CASES=200 --env SKC_BUG_CASES=150
    --env ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1
    --env UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
  set_tests_properties(guest_differential_asan PROPERTIES LABELS "guest;asan" TIMEOUT 660)
  return()
endif()

eip93_guest_test(selftest ${GUEST_DIR}/selftest.sh
  --add $<TARGET_FILE:eip93-afalg-check>:/usr/bin/eip93-afalg-check)
eip93_guest_test(sim_modes ${GUEST_DIR}/sim-modes.sh
  --add $<TARGET_FILE:eip93-sim-modes-check>:/usr/bin/eip93-sim-modes-check)
eip93_guest_test(gate ${GUEST_DIR}/gate.sh)
eip93_guest_test(fips ${GUEST_DIR}/fips.sh --cmdline fips=1)
# eip93-diff and eip93-skc-diff are build-machine programs: a cross build
# (the arm64 suite's) defines neither, and registers no differential run.
if(TARGET eip93-diff AND TARGET eip93-skc-diff)
  eip93_guest_test(differential ${GUEST_DIR}/differential.sh
    --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff
    --add $<TARGET_FILE:eip93-skc-diff>:/usr/bin/eip93-skc-diff --timeout 360)
endif()

eip93_guest_test(demo ${GUEST_DIR}/demo.sh)

# A wrapper that boots an x86_64 guest with the common files, for
# scripts/demo.sh, scripts/bench.sh, scripts/adapt-bench.sh and
# test/harness/gen-vectors.sh: build/test/guest-run.sh --work DIR --script FILE [run.sh options].
list(JOIN GUEST_COMMON "\" \"" GUEST_COMMON_Q)
file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/guest-run.sh CONTENT
"#!/bin/bash\n# Generated by CMake: test/rig/run.sh with the test suite's common guest files.\nexec \"${RIG_DIR}/run.sh\" \"${GUEST_COMMON_Q}\" \"$@\"\n"
FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
