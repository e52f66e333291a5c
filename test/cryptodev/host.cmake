# SPDX-License-Identifier: Apache-2.0
# Host tests of the /dev/crypto backend (label "host"), included from
# test/CMakeLists.txt whatever EIP93_GUEST_TESTS says.

# engine/cryptodev.c with stand-in syscalls: the link wraps open, openat, ioctl
# and close; the stand-in /dev/crypto computes with OpenSSL in user space.
add_executable(test_cryptodev ${CMAKE_CURRENT_LIST_DIR}/test_cryptodev.c
               ${PROJECT_SOURCE_DIR}/engine/cryptodev.c ${PROJECT_SOURCE_DIR}/engine/afalg.c
               ${PROJECT_SOURCE_DIR}/engine/afalg_req.c ${PROJECT_SOURCE_DIR}/engine/afalg_aio.c
               ${PROJECT_SOURCE_DIR}/detect/kprobe.c)
eip93_target_flags(test_cryptodev)
target_include_directories(test_cryptodev PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(test_cryptodev PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
target_link_options(test_cryptodev PRIVATE -Wl,--wrap=open,--wrap=openat,--wrap=ioctl,--wrap=close)
add_test(NAME test_cryptodev COMMAND test_cryptodev)
set_tests_properties(test_cryptodev PROPERTIES LABELS "host;unit;cryptodev")

# engine/cryptodev.c's page layout: the phases each request reports for the
# buffers it handed the module, on a stand-in that records them.
add_executable(test_cdev_pages ${CMAKE_CURRENT_LIST_DIR}/test_cdev_pages.c
               ${PROJECT_SOURCE_DIR}/engine/cryptodev.c)
eip93_target_flags(test_cdev_pages)
target_include_directories(test_cdev_pages PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(test_cdev_pages PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
target_link_options(test_cdev_pages PRIVATE -Wl,--wrap=open,--wrap=openat,--wrap=ioctl,--wrap=close)
add_test(NAME test_cdev_pages COMMAND test_cdev_pages)
set_tests_properties(test_cdev_pages PROPERTIES LABELS "host;unit;cryptodev")

# The pinned cryptodev-linux source (never part of this repository): beside
# the checkout as ../shared/third_party, or the workplace's copy.  A test
# build that cannot find it registers a test that fails, saying so: the
# backend's ABI check and guest tests must not vanish quietly.
if(NOT EIP93_CRYPTODEV_SRC)
  foreach(cand "${PROJECT_SOURCE_DIR}/../shared/third_party/cryptodev-linux"
               "/work/shared/third_party/cryptodev-linux")
    if(EXISTS "${cand}/crypto/cryptodev.h")
      get_filename_component(cand "${cand}" ABSOLUTE)
      set(EIP93_CRYPTODEV_SRC "${cand}" CACHE PATH
          "The pinned cryptodev-linux source (for the ABI check and the guest module)")
      break()
    endif()
  endforeach()
endif()
if(EIP93_CRYPTODEV_SRC AND EXISTS "${EIP93_CRYPTODEV_SRC}/crypto/cryptodev.h")
  # engine/cryptodev_abi.h against the module's own header.
  add_executable(cryptodev_abi_check ${CMAKE_CURRENT_LIST_DIR}/abi_check.c)
  eip93_target_flags(cryptodev_abi_check)
  target_include_directories(cryptodev_abi_check PRIVATE ${PROJECT_SOURCE_DIR} ${EIP93_CRYPTODEV_SRC})
  add_test(NAME cryptodev_abi COMMAND cryptodev_abi_check)
  set_tests_properties(cryptodev_abi PROPERTIES LABELS "host;unit;cryptodev")
else()
  add_test(NAME cryptodev_source_missing COMMAND ${CMAKE_COMMAND} -E echo
    "the pinned cryptodev-linux source was not found (../shared/third_party/cryptodev-linux"
    "beside the checkout, or /work/shared/third_party/cryptodev-linux): set EIP93_CRYPTODEV_SRC")
  set_tests_properties(cryptodev_source_missing PROPERTIES LABELS "host;cryptodev" WILL_FAIL ON)
endif()

# eip93-diff on the backend through a user-space /dev/crypto (cdev_shim.c,
# LD_PRELOAD) with a fault plan per ioctl: 0 divergences, and the counters
# the shim reads from the provider at unload show the engine used and each
# fault caught; no descriptor or session left once the provider is gone.
# Not in sanitized builds: ASan wants its runtime first in the initial
# library list, which an LD_PRELOAD library (built without it) breaks, and
# the interposed open/close would run before ASan's own interceptors are set.
if(NOT EIP93_SANITIZE AND TARGET eip93-diff AND TARGET eip93_hooks)
  add_library(eip93-cdev-shim MODULE ${CMAKE_CURRENT_LIST_DIR}/cdev_shim.c
    ${CMAKE_CURRENT_LIST_DIR}/cdev_fault.c)
  eip93_target_flags(eip93-cdev-shim)
  target_include_directories(eip93-cdev-shim PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(eip93-cdev-shim PRIVATE PkgConfig::LIBCRYPTO Threads::Threads ${CMAKE_DL_LIBS})

  set(CDEV_DIFF_ENV
    "OPENSSL_MODULES=${EIP93_HOOKS_MODULE_DIR}"
    "OPENSSL_CONF=${PROJECT_SOURCE_DIR}/test/data/empty.cnf"
    "EIP93_TEST_DT_PATH=${PROJECT_SOURCE_DIR}/test/data/dt-an7581.bin"
    "EIP93_TEST_HWCAP=0" "EIP93_TEST_ENGINE=cryptodev")
  set(CDEV_KGCM_CNF ${CMAKE_CURRENT_BINARY_DIR}/cdev-kgcm.cnf)
  file(GENERATE OUTPUT ${CDEV_KGCM_CNF} CONTENT
"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\ndefault = default_sect\n\
[default_sect]\nactivate = 1\n[eip93_sect]\nmodule = $<TARGET_FILE:eip93_hooks>\nactivate = 1\n\
kernel-algorithm = gcm_base(ctr(aes-eip93),ghash-generic)\ntag-check = 64\n")

  # cdev_diff(<name> <EIP93_TEST_CDEV_FAULT plan or "-"> <checks (a list)> <eip93-diff args...>)
  # Every run also checks: no /dev/crypto descriptor and no session left after unload.
  function(cdev_diff name plan checks)
    add_test(NAME ${name} COMMAND sh ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/host-diff.sh
      $<TARGET_FILE:eip93-cdev-shim> $<TARGET_FILE:eip93-diff> ${checks} descriptors=0 sessions=0
      -- --seed 1 ${ARGN})
    set(env ${CDEV_DIFF_ENV})
    if(NOT plan STREQUAL "-")
      list(APPEND env "EIP93_TEST_CDEV_FAULT=${plan}")
    endif()
    set_tests_properties(${name} PROPERTIES LABELS "host;cryptodev" ENVIRONMENT "${env}")
  endfunction()

  set(used "eip93-engine-messages>0")
  # No fault: the engine computed, nothing went to software for an error.
  cdev_diff(cdev_diff - "${used};injected=0;eip93-engine-errors=0;eip93-engine-faults=0;gate~enabled: ctr(aes-eip93)"
    --require-engine)
  cdev_diff(cdev_diff_kgcm - "${used};injected=0;eip93-engine-errors=0;gate~enabled: gcm_base"
    --require-engine --config ${CDEV_KGCM_CNF})
  # With --seed 1 the 11th CIOCCRYPT is a key check's, the 13th and the 30th a message's
  # (a key whose bytes passed a check before is not checked again, alg/verdict.c).
  # An engine error once (EIO; a timeout-like ETIMEDOUT): counted, the message to software.
  cdev_diff(cdev_diff_crypt_eio crypt:EIO:13
    "${used};injected=1;eip93-engine-errors=1;eip93-software-messages-error=1" --require-engine)
  cdev_diff(cdev_diff_crypt_timeout crypt:ETIMEDOUT:30
    "${used};injected=1;eip93-engine-errors=1;eip93-software-messages-error=1" --require-engine)
  # ... or in a key check: the key is not used.
  cdev_diff(cdev_diff_crypt_eio_keycheck crypt:EIO:11
    "${used};injected=1;eip93-engine-errors=1;eip93-key-checks-failed=1" --require-engine)
  # Every request failing: the engine is switched off for the process, and says why.
  cdev_diff(cdev_diff_crypt_eio_every crypt:EIO:7:every
    "injected>0;eip93-engine-errors>0;eip93-software-messages-gate>0;gate~consecutive")
  # EINTR is retried: no error at all.
  cdev_diff(cdev_diff_crypt_eintr crypt:EINTR:5 "${used};injected=1;eip93-engine-errors=0" --require-engine)
  # A resource error (no session memory) says nothing about the engine.  (Sessions 1-3 are
  # the gate's probe and the probes of the AES-CTR and AES-CBC modes; 4 is the first key's.)
  cdev_diff(cdev_diff_gsession_enomem gsession:ENOMEM:4
    "${used};injected=1;eip93-engine-errors=0;eip93-software-messages-error=1" --require-engine)
  # A key's session served by a CPU driver: refused (-ENODEV), an engine error.
  cdev_diff(cdev_diff_sessinfo_cpu "sessinfo:driver=ctr-aes-aesni:4"
    "${used};injected=1;eip93-engine-errors=1" --require-engine)
  # Wrong output bytes on one message (a bit flipped at the start or the end, half of it
  # not written): the integrity check catches each (docs/contract.md "Integrity"), the
  # message computed again in software; in a key check, the known-answer check does.
  set(caught "${used};injected=1;eip93-engine-faults=1;eip93-software-messages-fault=1;eip93-key-checks-failed=0")
  cdev_diff(cdev_diff_crypt_flip crypt:flip:13 "${caught}" --require-engine)
  cdev_diff(cdev_diff_crypt_fliplast crypt:fliplast:13 "${caught}" --require-engine)
  cdev_diff(cdev_diff_crypt_short crypt:short:13 "${caught}" --require-engine)
  cdev_diff(cdev_diff_crypt_flip_keycheck crypt:flip:11
    "${used};injected=1;eip93-engine-faults=1;eip93-key-checks-failed=1" --require-engine)
  # Wrong results on every request: the engine is switched off, naming wrong results.
  cdev_diff(cdev_diff_crypt_flip_every crypt:flip:5:every
    "injected>0;eip93-engine-faults>0;gate~wrong results")
  # The kernel AES-GCM composition (CIOCAUTHCRYPT): an error, a flipped ciphertext bit, a
  # flipped tag bit, and a refusal the delegate then decides.
  cdev_diff(cdev_diff_kgcm_eio authcrypt:EIO:6 "${used};injected=1;eip93-engine-errors=1"
    --require-engine --config ${CDEV_KGCM_CNF})
  cdev_diff(cdev_diff_kgcm_flip authcrypt:flip:12 "${caught}" --require-engine --config ${CDEV_KGCM_CNF})
  cdev_diff(cdev_diff_kgcm_fliplast authcrypt:fliplast:12 "${caught}" --require-engine
    --config ${CDEV_KGCM_CNF})
  # The gate: a missing or unreadable /dev/crypto, or CPU drivers behind both generic names,
  # keep it closed (eip93-diff then stops), with the errno in its text.
  cdev_diff(cdev_diff_gate_enoent open:ENOENT:1:every "closed~ENOENT;injected>0")
  cdev_diff(cdev_diff_gate_eacces open:EACCES:1:every "closed~EACCES;injected>0")
  cdev_diff(cdev_diff_gate_cpu "sessinfo:driver=ctr-aes-aesni:1:every" "closed~served by ctr-aes-aesni, not the engine;injected>0")

  # The application-level checks of the guest suite (cdev_proc.c: fork, descriptors, threads
  # sharing a key, a closed gate) on the stand-in too, whose descriptors are memfds.
  add_executable(eip93-cdev-proc ${CMAKE_CURRENT_LIST_DIR}/cdev_proc.c)
  eip93_target_flags(eip93-cdev-proc)
  target_link_libraries(eip93-cdev-proc PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
  set(CDEV_PROC_CNF ${CMAKE_CURRENT_BINARY_DIR}/cdev-proc.cnf)
  file(GENERATE OUTPUT ${CDEV_PROC_CNF} CONTENT
"openssl_conf = conf\n[conf]\nproviders = provs\n[provs]\neip93 = eip93_sect\ndefault = default_sect\n\
[default_sect]\nactivate = 1\n[eip93_sect]\nmodule = $<TARGET_FILE:eip93_hooks>\nactivate = 1\n")
  foreach(t "fork:fork" "fds:fds;40" "threads:threads;8;40" "gate_eacces:gate;EACCES")
    string(REPLACE ":" ";" t "${t}")
    list(POP_FRONT t name)
    add_test(NAME cdev_proc_${name} COMMAND eip93-cdev-proc ${t})
    set(env ${CDEV_DIFF_ENV} "OPENSSL_CONF=${CDEV_PROC_CNF}" "LD_PRELOAD=$<TARGET_FILE:eip93-cdev-shim>"
      "EIP93_TEST_CDEV_LINK=/memfd:cdev-shim (deleted)")
    if(name STREQUAL "gate_eacces")
      list(APPEND env "EIP93_TEST_CDEV_FAULT=open:EACCES:1:every")
    endif()
    set_tests_properties(cdev_proc_${name} PROPERTIES LABELS "host;cryptodev" ENVIRONMENT "${env}")
  endforeach()

  # Provider instances sharing the process's descriptor: two probing at once (6000 rounds),
  # then 8000 probes while another instance's last key closes again and again; every gate
  # binds ctr(aes-eip93) via /dev/crypto, and no descriptor is left.
  add_executable(eip93-cdev-race ${CMAKE_CURRENT_LIST_DIR}/cdev_race.c)
  eip93_target_flags(eip93-cdev-race)
  target_link_libraries(eip93-cdev-race PRIVATE PkgConfig::LIBCRYPTO Threads::Threads)
  add_test(NAME cdev_race COMMAND eip93-cdev-race 6000 8000)
  set_tests_properties(cdev_race PROPERTIES LABELS "host;cryptodev" TIMEOUT 300 ENVIRONMENT
    "${CDEV_DIFF_ENV};LD_PRELOAD=$<TARGET_FILE:eip93-cdev-shim>")

  # A short fuzz run on this backend: the replay of the checked-in corpus, reproducers and
  # integrity inputs (test/fuzz) over the stand-in (the harness's own setenv of
  # EIP93_TEST_ENGINE=fake turned into cryptodev by the shim; its fake fault plans are then
  # inert, the shim's plan applies), in both compositions: no divergence, the engine reached.
  # The libFuzzer target itself is an ASan build: not under an LD_PRELOAD library (above).
  if(TARGET eip93-fuzz-replay)
    set(FZ_IN ${PROJECT_SOURCE_DIR}/test/fuzz/corpus ${PROJECT_SOURCE_DIR}/test/fuzz/regress
      ${PROJECT_SOURCE_DIR}/test/fuzz/integrity)
    foreach(t "cdev_fuzz_replay:-:ctr" "cdev_fuzz_replay_kgcm:-:kgcm"
              "cdev_fuzz_replay_flip:crypt:flip:3:every:ctr"
              "cdev_fuzz_replay_kgcm_eio:authcrypt:EIO:5:every:kgcm")
      string(REPLACE ":" ";" t "${t}")
      list(POP_FRONT t name)
      list(POP_BACK t comp)
      string(REPLACE ";" ":" plan "${t}")
      add_test(NAME ${name} COMMAND eip93-fuzz-replay ${FZ_IN})
      set(env "LD_PRELOAD=$<TARGET_FILE:eip93-cdev-shim>" "EIP93_TEST_CDEV_ENGINE=cryptodev")
      set(fail "divergences [1-9]|DIVERGENCE")
      if(comp STREQUAL "kgcm")
        list(APPEND env "EIP93_FUZZ_COMPOSITION=kgcm")
      endif()
      if(plan STREQUAL "-")
        string(APPEND fail "|reaching the engine 0 ")
      else()
        list(APPEND env "EIP93_TEST_CDEV_FAULT=${plan}")
      endif()
      set_tests_properties(${name} PROPERTIES LABELS "host;cryptodev;fuzz" ENVIRONMENT "${env}"
        FAIL_REGULAR_EXPRESSION "${fail}")
    endforeach()
  endif()
endif()
