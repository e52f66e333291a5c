# SPDX-License-Identifier: Apache-2.0
# Guest suite: the provider's /dev/crypto backend on the simulated driver
# (test/cryptodev/guest.sh).  cryptodev.ko is built for the guest kernel from
# the pinned upstream source, outside this repository (build-module.sh).

# EIP93_CRYPTODEV_SRC: found by host.cmake (a test that fails says so when it is not).
set(CDEV_KMOD ${CMAKE_CURRENT_BINARY_DIR}/cryptodev-kmod)

if(EIP93_CRYPTODEV_SRC AND EXISTS "${EIP93_CRYPTODEV_SRC}/crypto/cryptodev.h" AND TARGET eip93-diff AND TARGET eip93-cdev-proc)
  add_test(NAME guest_build_cryptodev COMMAND ${CMAKE_COMMAND} -E env
    bash -c "${CMAKE_CURRENT_LIST_DIR}/build-module.sh ${EIP93_CRYPTODEV_SRC} ${CDEV_KMOD} \"$(${RIG_DIR}/kernel-abi.sh)\"")
  set_tests_properties(guest_build_cryptodev PROPERTIES FIXTURES_SETUP guest_cryptodev_kmod
    LABELS "guest;cryptodev" TIMEOUT 600)

  add_executable(eip93-cdev-check ${CMAKE_CURRENT_LIST_DIR}/cdev_check.c)
  eip93_target_flags(eip93-cdev-check)
  target_link_libraries(eip93-cdev-check PRIVATE PkgConfig::LIBCRYPTO)

  # One boot for all of guest.sh's sections: the differential runs, then an application's
  # processes (eip93-cdev-proc, host.cmake), seccomp children (test/sandbox's program),
  # OpenSSH's sshd (the build machine's, as test/ssh takes it), a missing or unreadable device.
  include(${PROJECT_SOURCE_DIR}/test/sandbox/program.cmake)
  # (A missing one: guest.sh's sshd section fails, saying so.)
  eip93_guest_programs(CDEV sshd:/usr/sbin/sshd ssh:/usr/bin/ssh ssh-keygen:/usr/bin/ssh-keygen)
  eip93_guest_test(cryptodev ${CMAKE_CURRENT_LIST_DIR}/guest.sh
    --module ${CDEV_KMOD}/cryptodev.ko
    --add $<TARGET_FILE:eip93-diff>:/usr/bin/eip93-diff
    --add $<TARGET_FILE:eip93-skc-diff>:/usr/bin/eip93-skc-diff
    --add $<TARGET_FILE:eip93-cdev-check>:/usr/bin/eip93-cdev-check
    --add $<TARGET_FILE:eip93-cdev-proc>:/usr/bin/eip93-cdev-proc
    --add $<TARGET_FILE:eip93-seccomp-check>:/usr/bin/eip93-seccomp-check
    ${CDEV_ADD} --mem 1024 --timeout 900)
  set_tests_properties(guest_cryptodev PROPERTIES LABELS "guest;cryptodev" TIMEOUT 960
    FIXTURES_REQUIRED "guest_kernel;guest_driver;guest_cryptodev_kmod")
  # The backend's benchmark beside AF_ALG's (test/cryptodev/bench.cmake), when present.
  include(${CMAKE_CURRENT_LIST_DIR}/bench.cmake OPTIONAL)
endif()
