// SPDX-License-Identifier: Apache-2.0
/*
 * The ciphers offered, one row each (alg/cipher.h), in the order they are
 * registered.  A new cipher is its room under alg/ (its row beside its
 * dispatch functions) and one line here.
 */
#include "algs.h"

#include <string.h>

#include "../alg/gcm/gcm.h"
#include "../alg/skc/skc.h"

static const struct eip93_cipher *const rows[] = {
	&eip93_cipher_aes_gcm,
	&eip93_cipher_aes_ctr,
	&eip93_cipher_aes_cbc,
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

int eip93_algs_sw_open(struct eip93_sw_lib *lib, const char *propq, const char *self)
{
	const char *names[EIP93_SW_MAX + 1];
	size_t n = 0;

	for (size_t r = 0; r < NROWS; r++)
		for (size_t k = 0; k < rows[r]->nkeys && n <= EIP93_SW_MAX; k++)
			names[n++] = rows[r]->names[k];
	return eip93_sw_open(lib, names, n, propq, self);
}

size_t eip93_algs_build(OSSL_ALGORITHM *table, const struct eip93_sw_lib *lib,
			const struct eip93_alg_env *env, const char *props)
{
	size_t n = 0;

	for (size_t r = 0; r < NROWS; r++) {
		const struct eip93_cipher *c = rows[r];

		if (c->capable != NULL && !c->capable(env))
			continue;
		for (size_t k = 0; k < c->nkeys && n < EIP93_ALGS_MAX; k++) {
			const struct eip93_sw_impl *sw = eip93_sw_find(lib->impl, c->names[k]);

			if (sw == NULL)
				continue;
			table[n].algorithm_names = sw->names;
			table[n].property_definition = props;
			table[n].implementation = c->functions[k];
			table[n].algorithm_description = c->description;
			n++;
		}
	}
	memset(&table[n], 0, sizeof(table[0]));
	return n;
}
