# SPDX-License-Identifier: Apache-2.0
# /dev/crypto beside AF_ALG (included by suite.cmake): eip93-bench's section 7
# (test/bench/cdev.c, cdev_raw.c) linked in, its ioctl() exported so that the
# provider's /dev/crypto requests are counted too, and a guest run printing the table
# (test/cryptodev/bench.sh) with cryptodev.ko built with its asynchronous
# requests.  Like guest_bench_smoke it is part of the default ctest run, so it
# is kept short (3 rounds of ~20 ms per contender); nothing it times is
# asserted, only that the table is complete and every answer right.
# Real numbers: the command in docs/performance.md "/dev/crypto beside AF_ALG".
if(TARGET eip93-bench)
  target_sources(eip93-bench PRIVATE ${PROJECT_SOURCE_DIR}/test/bench/cdev.c
    ${PROJECT_SOURCE_DIR}/test/bench/cdev_raw.c)
  target_compile_definitions(eip93-bench PRIVATE EIP93_BENCH_CDEV=1)
  target_link_options(eip93-bench PRIVATE -Wl,--export-dynamic-symbol=ioctl)

  set(CDEV_KMOD_ASYNC ${CMAKE_CURRENT_BINARY_DIR}/cryptodev-kmod-async)
  add_test(NAME guest_build_cryptodev_async COMMAND ${CMAKE_COMMAND} -E env
    bash -c "${CMAKE_CURRENT_LIST_DIR}/build-module.sh ${EIP93_CRYPTODEV_SRC} ${CDEV_KMOD_ASYNC} \"$(${RIG_DIR}/kernel-abi.sh)\" --async")
  set_tests_properties(guest_build_cryptodev_async PROPERTIES
    FIXTURES_SETUP guest_cryptodev_async_kmod LABELS "guest;cryptodev" TIMEOUT 600)

  eip93_guest_test(bench_cryptodev ${CMAKE_CURRENT_LIST_DIR}/bench.sh
    --module ${CDEV_KMOD_ASYNC}/cryptodev.ko
    --add $<TARGET_FILE:eip93-bench>:/usr/bin/eip93-bench
    --env "EIP93_BENCH_ARGS=--sections 7 --rounds 3 --batch-ms 20" --timeout 360)
  set_tests_properties(guest_bench_cryptodev PROPERTIES LABELS "guest;bench;cryptodev"
    TIMEOUT 400 FIXTURES_REQUIRED "guest_kernel;guest_driver;guest_cryptodev_async_kmod")
endif()
