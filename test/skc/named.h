// SPDX-License-Identifier: Apache-2.0
/*
 * The AES-CTR and AES-CBC named scripts (named.c): eip93-skc-diff --script
 * NAME.  Each is one EVP call sequence on which eip93 once differed from the
 * default provider (test/fuzz/regress holds the same sequence as a fuzz
 * input of the same name), run on a context of each provider and compared
 * answer by answer.
 */
#ifndef EIP93_SKC_NAMED_H
#define EIP93_SKC_NAMED_H

#include <openssl/types.h>

/* skc_named_list() - every script's name, one a line, on stdout. */
void skc_named_list(void);
/* skc_named_known() - 1 if @name is a script, else 0. */
int skc_named_known(const char *name);
/*
 * skc_named_run() - @cases runs of script @name ("all": each in turn) with
 * keys, IVs and sizes from @seed, both providers of @lib; the divergent
 * runs' count (each printed).
 */
unsigned long skc_named_run(OSSL_LIB_CTX *lib, const char *name, unsigned long cases,
			    unsigned long seed);

#endif /* EIP93_SKC_NAMED_H */
