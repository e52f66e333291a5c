# SPDX-License-Identifier: Apache-2.0
# Guest tests: each boots Debian's x86_64 kernel under QEMU (TCG) with the
# AF_ALG modules, and runs one script in it.  Two fixtures come first: the
# kernel image (downloaded from Debian's archive and unpacked, never
# installed) and the simulated EIP93 driver built against its headers.

set(EIP93_GUEST_CACHE "${PROJECT_BINARY_DIR}/guest-cache" CACHE PATH
    "Where the guest kernel is downloaded and unpacked (reused between builds)")
set(GUEST_DIR ${CMAKE_CURRENT_SOURCE_DIR}/guest)
set(GUEST_WORK ${CMAKE_CURRENT_BINARY_DIR}/guest-work)
set(GUEST_KMOD ${CMAKE_CURRENT_BINARY_DIR}/kmod)

add_test(NAME guest_prepare_kernel COMMAND ${GUEST_DIR}/prepare.sh ${EIP93_GUEST_CACHE})
set_tests_properties(guest_prepare_kernel PROPERTIES FIXTURES_SETUP guest_kernel
  LABELS "guest" TIMEOUT 900)
add_test(NAME guest_build_driver COMMAND ${CMAKE_COMMAND} -E env
  bash -c "${CMAKE_CURRENT_SOURCE_DIR}/kmod/build.sh ${CMAKE_CURRENT_SOURCE_DIR}/kmod ${GUEST_KMOD} \"$(${GUEST_DIR}/kernel-abi.sh)\"")
set_tests_properties(guest_build_driver PROPERTIES FIXTURES_SETUP guest_driver
  LABELS "guest" TIMEOUT 600)

add_executable(eip93-gate-check guest/gate-check.c)
eip93_target_flags(eip93-gate-check)
target_link_libraries(eip93-gate-check PRIVATE PkgConfig::LIBCRYPTO)

find_program(OPENSSL_CLI openssl REQUIRED)

# What every guest gets: both builds of the provider, the openssl command,
# the test programs, the device-tree fixtures and the simulated driver.
set(GUEST_COMMON
  --cache ${EIP93_GUEST_CACHE}
  --module ${GUEST_KMOD}/eip93_sim.ko
  --add $<TARGET_FILE:eip93>:/opt/eip93/release/eip93.so
  --add $<TARGET_FILE:eip93_hooks>:/opt/eip93/hooks/eip93.so
  --add ${OPENSSL_CLI}:/usr/bin/openssl
  --add $<TARGET_FILE:eip93-gate-check>:/usr/bin/eip93-gate-check
  --add-dir ${CMAKE_CURRENT_SOURCE_DIR}/data:/opt/eip93/data)

# eip93_guest_test(<name> <script> [extra run.sh arguments...])
function(eip93_guest_test name script)
  add_test(NAME guest_${name}
    COMMAND ${GUEST_DIR}/run.sh ${GUEST_COMMON} --work ${GUEST_WORK}/${name}
            --script ${script} ${ARGN})
  set_tests_properties(guest_${name} PROPERTIES LABELS "guest"
    FIXTURES_REQUIRED "guest_kernel;guest_driver" TIMEOUT 400)
endfunction()

eip93_guest_test(selftest ${GUEST_DIR}/selftest.sh
  --add ${CMAKE_CURRENT_BINARY_DIR}/eip93-afalg-check:/usr/bin/eip93-afalg-check)
eip93_guest_test(gate ${GUEST_DIR}/gate.sh)
if(TARGET eip93-diff)
  eip93_guest_test(differential ${GUEST_DIR}/differential.sh
    --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff --timeout 360)
endif()
