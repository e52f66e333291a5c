# SPDX-License-Identifier: Apache-2.0
# Keystream ahead (issue 35) on the host.
# eip93-fake-ahead-check: the fake engine's keystream ahead at its interface
# (engine/fake_ahead.c, linked directly): asynchronous, one outstanding, the
# keystream right, returned once, a forked child's -ENOENT and zero buffer,
# the plan at site=ahead and by direction, eager mode, key close.
add_executable(eip93-fake-ahead-check ${CMAKE_CURRENT_LIST_DIR}/fake_check.c
  ${PROJECT_SOURCE_DIR}/engine/fake.c ${PROJECT_SOURCE_DIR}/engine/fake_skc.c
  ${PROJECT_SOURCE_DIR}/engine/fake_ahead.c ${PROJECT_SOURCE_DIR}/engine/afalg_words.c
  ${PROJECT_SOURCE_DIR}/detect/kprobe.c)
eip93_target_flags(eip93-fake-ahead-check)
target_compile_definitions(eip93-fake-ahead-check PRIVATE EIP93_TEST_HOOKS=1)
target_include_directories(eip93-fake-ahead-check PRIVATE ${PROJECT_SOURCE_DIR}
  ${PROJECT_SOURCE_DIR}/engine)
target_link_libraries(eip93-fake-ahead-check PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
add_test(NAME ahead_fake COMMAND eip93-fake-ahead-check)
set_tests_properties(ahead_fake PROPERTIES LABELS "host;unit")
