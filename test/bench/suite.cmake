# SPDX-License-Identifier: Apache-2.0
# The benchmark (what the engine path costs against a raw AF_ALG loop and
# software): a command, not a test.
# scripts/bench.sh boots a guest with eip93-bench and prints its table of
# ratios.  guest_bench_smoke only checks that it runs and prints that table
# (a couple of messages per row, one round); no timing is asserted.
set(BENCH_DIR ${CMAKE_CURRENT_LIST_DIR})
add_executable(eip93-bench ${BENCH_DIR}/eip93_bench.c ${BENCH_DIR}/memory.c
  ${BENCH_DIR}/syscalls.c ${BENCH_DIR}/raw.c ${BENCH_DIR}/records.c ${BENCH_DIR}/measure.c
  ${PROJECT_SOURCE_DIR}/alg/gcm/route.c
  ${BENCH_DIR}/engine.c ${BENCH_DIR}/delegated.c ${BENCH_DIR}/calls.c ${BENCH_DIR}/verify.c
  ${BENCH_DIR}/keysetup.c ${BENCH_DIR}/overlap.c)
eip93_target_flags(eip93-bench)
target_link_libraries(eip93-bench PRIVATE PkgConfig::LIBCRYPTO)
# Its sendmsg()/readv()/read() wrappers must be what the provider module calls.
target_link_options(eip93-bench PRIVATE -Wl,--export-dynamic-symbol=sendmsg
                    -Wl,--export-dynamic-symbol=readv -Wl,--export-dynamic-symbol=read)
eip93_guest_test(bench_smoke ${GUEST_DIR}/bench.sh
  --add $<TARGET_FILE:eip93-bench>:/usr/bin/eip93-bench --env EIP93_BENCH_ARGS=--smoke)
# Section 8 (keystream-ahead off / on, one round, short batches): its
# functional checks only (every record against the default provider, every
# record on the engine, keystream ahead used with it on and never with it
# off); scripts/overlap-bench.sh is the measurement.
eip93_guest_test(bench_overlap ${GUEST_DIR}/bench.sh --smp 2
  --add $<TARGET_FILE:eip93-bench>:/usr/bin/eip93-bench
  --env "EIP93_BENCH_ARGS=--sections 8 --rounds 1 --batch-ms 20")
