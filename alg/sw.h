// SPDX-License-Identifier: Apache-2.0
/*
 * The software delegate: another provider's AES-GCM (the default
 * provider's, unless configured otherwise), called through its own dispatch
 * table from a library context this provider owns.  That library context
 * never contains this provider, so the delegate can never resolve to us,
 * whatever the application's default properties say.
 */
#ifndef EIP93_SW_H
#define EIP93_SW_H

#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/types.h>

/* Delegates one library context resolves at most (the names of every cipher row). */
#define EIP93_SW_MAX 12

struct eip93_sw_impl {
	const char *canon; /* the name it was resolved for (the caller's pointer); NULL: the end */
	void *provctx;	   /* the delegate provider's context */
	const char *names; /* its algorithm names, e.g. "AES-128-GCM:id-aes128-GCM:..." */
	OSSL_FUNC_cipher_newctx_fn *newctx;
	OSSL_FUNC_cipher_freectx_fn *freectx;
	OSSL_FUNC_cipher_dupctx_fn *dupctx;
	OSSL_FUNC_cipher_encrypt_init_fn *einit;
	OSSL_FUNC_cipher_decrypt_init_fn *dinit;
	OSSL_FUNC_cipher_update_fn *update;
	OSSL_FUNC_cipher_final_fn *final;
	OSSL_FUNC_cipher_cipher_fn *cipher;
	OSSL_FUNC_cipher_get_params_fn *get_params;
	OSSL_FUNC_cipher_get_ctx_params_fn *get_ctx_params;
	OSSL_FUNC_cipher_set_ctx_params_fn *set_ctx_params;
	OSSL_FUNC_cipher_gettable_params_fn *gettable_params;
	OSSL_FUNC_cipher_gettable_ctx_params_fn *gettable_ctx_params;
	OSSL_FUNC_cipher_settable_ctx_params_fn *settable_ctx_params;
};

struct eip93_sw_lib {
	OSSL_LIB_CTX *libctx;
	OSSL_PROVIDER *base;  /* "default", always loaded */
	OSSL_PROVIDER *extra; /* the provider fallback-properties names, if another */
	struct eip93_sw_impl impl[EIP93_SW_MAX + 1]; /* in the order of the names, then zeroed */
};

/**
 * eip93_sw_open() - build the private library context and resolve the delegates.
 * @lib: zeroed on entry; filled on success
 * @names: the canonical names to resolve (@n of them, at most EIP93_SW_MAX),
 *         e.g. "AES-128-GCM"; the pointers are kept (eip93_sw_find())
 * @propq: property query for the delegate ("provider=default" by default)
 * @self: this provider's name; a query naming it is refused
 *
 * Return: 0, -EINVAL (query names this provider, resolves to an eip93
 * provider under any name, or does not parse),
 * -ENOENT (no implementation matches), -E2BIG (too many names), -ENOSYS (an implementation lacks a
 * required function) or -ENOMEM.  On failure @lib is left closed.
 */
int eip93_sw_open(struct eip93_sw_lib *lib, const char *const *names, size_t n, const char *propq,
		  const char *self);

/* eip93_sw_close() - release what eip93_sw_open() built. */
void eip93_sw_close(struct eip93_sw_lib *lib);

/* A provider that answers this parameter is an eip93 provider: never a delegate. */
#define EIP93_SW_SELF_PARAM "eip93-gate"

/*
 * eip93_sw_find() - the delegate resolved for @name in @impl (an array that
 * ends with a zeroed entry: struct eip93_sw_lib's), found by the very
 * pointer handed to eip93_sw_open() (a cipher row's), else by its text;
 * NULL: none.
 */
static inline const struct eip93_sw_impl *eip93_sw_find(const struct eip93_sw_impl *impl,
							const char *name)
{
	for (const struct eip93_sw_impl *i = impl; i->canon != NULL; i++)
		if (i->canon == name)
			return i;
	for (const struct eip93_sw_impl *i = impl; i->canon != NULL; i++)
		if (strcmp(i->canon, name) == 0)
			return i;
	return NULL;
}

#endif /* EIP93_SW_H */
