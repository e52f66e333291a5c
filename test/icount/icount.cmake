# SPDX-License-Identifier: Apache-2.0
# The provider's own cost in instructions (callgrind), on this host with the
# fake engine: eip93-icount runs every shape, icount.sh prints the table and,
# as the test icount_budget, fails when a shape is over its budget
# (docs/performance.md, "Instruction budget").  Not in sanitized builds
# (valgrind cannot run them) nor cross builds.
find_program(VALGRIND valgrind REQUIRED)
find_path(VALGRIND_INCLUDE valgrind/callgrind.h REQUIRED)
set(ICOUNT_DIR ${CMAKE_CURRENT_LIST_DIR})
add_executable(eip93-icount ${ICOUNT_DIR}/icount.c ${ICOUNT_DIR}/runner.c ${ICOUNT_DIR}/skc.c
  ${PROJECT_SOURCE_DIR}/engine/fake.c ${PROJECT_SOURCE_DIR}/engine/fake_skc.c ${PROJECT_SOURCE_DIR}/engine/fake_ahead.c ${PROJECT_SOURCE_DIR}/engine/afalg.c
  ${PROJECT_SOURCE_DIR}/engine/afalg_req.c ${PROJECT_SOURCE_DIR}/engine/afalg_aio.c ${PROJECT_SOURCE_DIR}/detect/sandbox.c
  ${PROJECT_SOURCE_DIR}/engine/afalg_words.c
  ${PROJECT_SOURCE_DIR}/detect/kprobe.c ${PROJECT_SOURCE_DIR}/alg/gcm/route.c)
eip93_target_flags(eip93-icount)
target_include_directories(eip93-icount PRIVATE ${PROJECT_SOURCE_DIR}/alg ${PROJECT_SOURCE_DIR}/engine
                           ${VALGRIND_INCLUDE})
target_compile_definitions(eip93-icount PRIVATE EIP93_TEST_HOOKS=1)
target_link_libraries(eip93-icount PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)

# Not registered in a musl build (cmake/toolchain-musl.cmake): the held ceilings are ratios
# measured with glibc, and the provider's per-message calls into the C library (memcpy, malloc,
# the test hooks' getenv) cost musl more instructions than glibc, which says nothing of eip93's
# own code; the glibc stages enforce the budget.  eip93-icount is built: icount.sh runs it.
if(EIP93_MUSL)
  message(STATUS "eip93: musl build: icount_budget not registered (its ceilings are glibc's)")
  return()
endif()
add_test(NAME icount_budget COMMAND ${ICOUNT_DIR}/icount.sh --budget
  --prog $<TARGET_FILE:eip93-icount> --modules ${EIP93_HOOKS_MODULE_DIR}
  --data ${PROJECT_SOURCE_DIR}/test/data --out ${CMAKE_CURRENT_BINARY_DIR}/icount)
set_tests_properties(icount_budget PROPERTIES LABELS "host;icount" TIMEOUT 900)
