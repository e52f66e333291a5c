// SPDX-License-Identifier: Apache-2.0
/* Resolve the software delegate's dispatch tables, one per name the cipher rows hand over. */
#include "sw.h"

#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

/* Does the ':'-separated list @names contain @name (case-insensitively)? */
static int names_contain(const char *names, const char *name)
{
	size_t n = strlen(name);

	while (names != NULL && *names != '\0') {
		const char *end = strchr(names, ':');
		size_t len = end != NULL ? (size_t)(end - names) : strlen(names);

		if (len == n && strncasecmp(names, name, n) == 0)
			return 1;
		names = end != NULL ? end + 1 : NULL;
	}
	return 0;
}

/*
 * The provider named by a "provider=NAME" clause of @propq, copied into
 * @out.  Returns 0 (none named: @out empty), 1 (named) or -EINVAL.
 */
static int propq_provider(const char *propq, char *out, size_t outlen)
{
	const char *p = propq;

	out[0] = '\0';
	while (p != NULL && *p != '\0') {
		const char *end = strchr(p, ',');
		size_t len = end != NULL ? (size_t)(end - p) : strlen(p);

		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		if (len > 9 && strncasecmp(p, "provider=", 9) == 0) {
			const char *v = p + 9;
			size_t vlen = len - 9;

			while (vlen > 0 && (v[vlen - 1] == ' ' || v[vlen - 1] == '\t'))
				vlen--;
			if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
				v++;
				vlen -= 2;
			}
			if (vlen == 0 || vlen >= outlen)
				return -EINVAL;
			memcpy(out, v, vlen);
			out[vlen] = '\0';
			return 1;
		}
		p = end != NULL ? end + 1 : NULL;
	}
	return 0;
}

#define TAKE(field, type)                                                                          \
	do {                                                                                       \
		if (impl->field == NULL)                                                           \
			impl->field = OSSL_FUNC_##type(d);                                         \
	} while (0)

static int fill_impl(struct eip93_sw_impl *impl, const OSSL_DISPATCH *d)
{
	for (; d->function_id != 0; d++) {
		switch (d->function_id) {
		case OSSL_FUNC_CIPHER_NEWCTX:
			TAKE(newctx, cipher_newctx);
			break;
		case OSSL_FUNC_CIPHER_FREECTX:
			TAKE(freectx, cipher_freectx);
			break;
		case OSSL_FUNC_CIPHER_DUPCTX:
			TAKE(dupctx, cipher_dupctx);
			break;
		case OSSL_FUNC_CIPHER_ENCRYPT_INIT:
			TAKE(einit, cipher_encrypt_init);
			break;
		case OSSL_FUNC_CIPHER_DECRYPT_INIT:
			TAKE(dinit, cipher_decrypt_init);
			break;
		case OSSL_FUNC_CIPHER_UPDATE:
			TAKE(update, cipher_update);
			break;
		case OSSL_FUNC_CIPHER_FINAL:
			TAKE(final, cipher_final);
			break;
		case OSSL_FUNC_CIPHER_CIPHER:
			TAKE(cipher, cipher_cipher);
			break;
		case OSSL_FUNC_CIPHER_GET_PARAMS:
			TAKE(get_params, cipher_get_params);
			break;
		case OSSL_FUNC_CIPHER_GET_CTX_PARAMS:
			TAKE(get_ctx_params, cipher_get_ctx_params);
			break;
		case OSSL_FUNC_CIPHER_SET_CTX_PARAMS:
			TAKE(set_ctx_params, cipher_set_ctx_params);
			break;
		case OSSL_FUNC_CIPHER_GETTABLE_PARAMS:
			TAKE(gettable_params, cipher_gettable_params);
			break;
		case OSSL_FUNC_CIPHER_GETTABLE_CTX_PARAMS:
			TAKE(gettable_ctx_params, cipher_gettable_ctx_params);
			break;
		case OSSL_FUNC_CIPHER_SETTABLE_CTX_PARAMS:
			TAKE(settable_ctx_params, cipher_settable_ctx_params);
			break;
		default:
			break;
		}
	}
	/* What our own context forwards to unconditionally. */
	if (impl->newctx == NULL || impl->freectx == NULL || impl->einit == NULL ||
	    impl->dinit == NULL || impl->update == NULL || impl->final == NULL ||
	    impl->get_ctx_params == NULL || impl->set_ctx_params == NULL ||
	    impl->get_params == NULL)
		return -ENOSYS;
	return 0;
}

#undef TAKE

/*
 * Is this delegate an eip93 provider itself, whatever name loaded it?  Its
 * functions live in this very module (the same eip93.so loaded again under
 * another name), or it answers the parameter only eip93 answers (a copy).
 */
static int is_self(const OSSL_PROVIDER *prov, const struct eip93_sw_impl *impl)
{
	const char *marker = NULL;
	OSSL_PARAM p[2];
	Dl_info a, b;

	if (dladdr((const void *)impl->newctx, &a) != 0 &&
	    dladdr((const void *)&is_self, &b) != 0 && a.dli_fbase == b.dli_fbase)
		return 1;
	p[0] = OSSL_PARAM_construct_utf8_ptr(EIP93_SW_SELF_PARAM, (char **)&marker, 0);
	p[1] = OSSL_PARAM_construct_end();
	return OSSL_PROVIDER_get_params(prov, p) && marker != NULL;
}

static int resolve_one(struct eip93_sw_lib *lib, const char *name, const char *propq,
		       struct eip93_sw_impl *impl)
{
	const OSSL_ALGORITHM *algs;
	const OSSL_PROVIDER *prov;
	EVP_CIPHER *c;
	int no_cache = 0, ret = -ENOENT;

	c = EVP_CIPHER_fetch(lib->libctx, name, propq);
	if (c == NULL)
		return -ENOENT;
	prov = EVP_CIPHER_get0_provider(c);
	algs = OSSL_PROVIDER_query_operation(prov, OSSL_OP_CIPHER, &no_cache);
	for (const OSSL_ALGORITHM *a = algs; a != NULL && a->algorithm_names != NULL; a++) {
		if (!names_contain(a->algorithm_names, name))
			continue;
		memset(impl, 0, sizeof(*impl));
		impl->provctx = OSSL_PROVIDER_get0_provider_ctx(prov);
		impl->names = a->algorithm_names;
		ret = fill_impl(impl, a->implementation);
		if (ret == 0 && is_self(prov, impl))
			ret = -EINVAL;
		break;
	}
	if (algs != NULL)
		OSSL_PROVIDER_unquery_operation(prov, OSSL_OP_CIPHER, algs);
	EVP_CIPHER_free(c);
	return ret;
}

int eip93_sw_open(struct eip93_sw_lib *lib, const char *const *names, size_t n, const char *propq,
		  const char *self)
{
	char named[64];
	int ret, r;

	memset(lib, 0, sizeof(*lib));
	if (n > EIP93_SW_MAX)
		return -E2BIG;
	r = propq_provider(propq, named, sizeof(named));
	if (r < 0 || (r == 1 && strcasecmp(named, self) == 0))
		return -EINVAL;

	lib->libctx = OSSL_LIB_CTX_new();
	if (lib->libctx == NULL)
		return -ENOMEM;
	lib->base = OSSL_PROVIDER_load(lib->libctx, "default");
	if (lib->base == NULL) {
		ret = -ENOENT;
		goto err;
	}
	if (r == 1 && strcasecmp(named, "default") != 0) {
		lib->extra = OSSL_PROVIDER_load(lib->libctx, named);
		if (lib->extra == NULL) {
			ret = -ENOENT;
			goto err;
		}
	}
	for (size_t i = 0; i < n; i++) {
		ret = resolve_one(lib, names[i], propq, &lib->impl[i]);
		if (ret < 0)
			goto err;
		lib->impl[i].canon = names[i];
	}
	return 0;
err:
	eip93_sw_close(lib);
	return ret;
}

void eip93_sw_close(struct eip93_sw_lib *lib)
{
	if (lib->extra != NULL)
		OSSL_PROVIDER_unload(lib->extra);
	if (lib->base != NULL)
		OSSL_PROVIDER_unload(lib->base);
	OSSL_LIB_CTX_free(lib->libctx);
	memset(lib, 0, sizeof(*lib));
}
