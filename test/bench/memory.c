// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-bench, section 3: live heap bytes an eip93 AES-GCM EVP_CIPHER_CTX adds
 * over a default provider one, counted by the allocator main() installs
 * before any other OpenSSL call.
 */
#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting allocator (installed before any other OpenSSL call) ----- */

union mem_hdr {
	size_t n;
	max_align_t align;
};

static size_t mem_live, mem_peak;

void *count_malloc(size_t n, const char *file, int line)
{
	union mem_hdr *h;

	(void)file;
	(void)line;
	h = malloc(sizeof(*h) + n);
	if (h == NULL)
		return NULL;
	h->n = n;
	mem_live += n;
	if (mem_live > mem_peak)
		mem_peak = mem_live;
	return h + 1;
}

void count_free(void *p, const char *file, int line)
{
	union mem_hdr *h;

	(void)file;
	(void)line;
	if (p == NULL)
		return;
	h = (union mem_hdr *)p - 1;
	mem_live -= h->n;
	free(h);
}

void *count_realloc(void *p, size_t n, const char *file, int line)
{
	union mem_hdr *h, *nh;
	size_t old;

	if (p == NULL)
		return count_malloc(n, file, line);
	if (n == 0) {
		count_free(p, file, line);
		return NULL;
	}
	h = (union mem_hdr *)p - 1;
	old = h->n;
	nh = realloc(h, sizeof(*nh) + n);
	if (nh == NULL)
		return NULL;
	nh->n = n;
	mem_live = mem_live - old + n;
	if (mem_live > mem_peak)
		mem_peak = mem_live;
	return nh + 1;
}

/* ---- section 3: memory -------------------------------------------------- */

struct mem_ctx13 {
	long at_init;	/* live bytes the context holds after init with key + IV */
	long after_msg; /* ... after a completed message */
	long across[3]; /* live after - before, per message */
	long peak[3];	/* high-water mark during the message, over before */
	long leak;	/* live after free - live before new */
};

/* A context's life: new, init (key + IV), @nmsg TLS 1.3 messages of @len, free. */
static int mem_life13(const EVP_CIPHER *c, size_t len, int nmsg, struct mem_ctx13 *m)
{
	static unsigned char buf[MAX_PAYLOAD + TAGLEN];
	unsigned char nonce[IVLEN], tag[TAGLEN] = { 0 };
	EVP_CIPHER_CTX *ctx;
	size_t base = mem_live, before;
	int outl = 0, fl = 0, ok = 1;

	memset(m, 0, sizeof(*m));
	ctx = EVP_CIPHER_CTX_new();
	if (ctx == NULL || !EVP_CipherInit_ex(ctx, c, NULL, B.key, base_nonce, 1)) {
		EVP_CIPHER_CTX_free(ctx);
		return -1;
	}
	m->at_init = (long)(mem_live - base);
	fill(buf, len, 2);
	for (int i = 0; i < nmsg && ok; i++) {
		int enc = i < 2; /* messages 0, 1 encrypt; 2 decrypts message 1 back */

		if (i == 2)
			nonce_for(nonce, base_nonce, 1);
		else
			nonce_for(nonce, base_nonce, (uint64_t)i);
		before = mem_live;
		mem_peak = mem_live;
		ok = (i == 0 || EVP_CipherInit_ex(ctx, NULL, NULL, NULL, nonce, enc)) &&
		     (enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAGLEN, tag)) &&
		     EVP_CipherUpdate(ctx, NULL, &outl, tls13_aad, TLS13_AAD) &&
		     EVP_CipherUpdate(ctx, buf, &outl, buf, (int)len) &&
		     EVP_CipherFinal_ex(ctx, buf + outl, &fl) &&
		     (!enc || EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAGLEN, tag));
		m->across[i] = (long)mem_live - (long)before;
		m->peak[i] = (long)mem_peak - (long)before;
	}
	m->after_msg = (long)(mem_live - base);
	EVP_CIPHER_CTX_free(ctx);
	m->leak = (long)mem_live - (long)base;
	return ok ? 0 : -1;
}

struct mem_ctx12 {
	long at_init, after_rec, across, peak, leak;
};

/* TLS 1.2: new, init with key, SET_IV_FIXED, one record of @len, free. */
static int mem_life12(const EVP_CIPHER *c, size_t len, struct mem_ctx12 *m)
{
	struct evp12 e;
	size_t base, before;
	int rc;

	/* The record buffer is malloc'd by libc, outside the counted heap. */
	base = mem_live;
	if (evp12_open(&e, c, 1, len, tls12_fixed, NULL) != 0)
		return -1;
	m->at_init = (long)(mem_live - base);
	before = mem_live;
	mem_peak = mem_live;
	rc = evp12_record(&e);
	m->across = (long)mem_live - (long)before;
	m->peak = (long)mem_peak - (long)before;
	m->after_rec = (long)(mem_live - base);
	evp12_close(&e);
	m->leak = (long)mem_live - (long)base;
	return rc;
}

/* GCM128's block function for gcm128_bytes(). */
static void mem_block(const unsigned char in[16], unsigned char out[16], const void *k)
{
	EVP_CIPHER_CTX *ecb;

	memcpy(&ecb, &k, sizeof(k)); /* the key GCM128 hands back as const */
	(void)EVP_Cipher(ecb, out, in, 16);
}

/*
 * The live bytes of one libcrypto GCM128 context (H and its tables), counted by
 * this allocator: what an open key holds besides its check state (alg/gcm/compose.c:
 * on ctr(aes-eip93) GHASH and the tag are computed in this process; on the
 * kernel's AES-GCM the sampled tags, tag-check, are recomputed with it).  -1 on
 * error.
 */
static long gcm128_bytes(void)
{
	EVP_CIPHER_CTX *ecb = EVP_CIPHER_CTX_new();
	GCM128_CONTEXT *g = NULL;
	size_t before;
	long n = -1;

	if (ecb != NULL && EVP_EncryptInit_ex2(ecb, EVP_aes_128_ecb(), B.key, NULL, NULL)) {
		before = mem_live;
		g = CRYPTO_gcm128_new(ecb, mem_block);
		if (g != NULL)
			n = (long)mem_live - (long)before;
	}
	CRYPTO_gcm128_release(g);
	EVP_CIPHER_CTX_free(ecb);
	return n;
}

void section_memory(void)
{
	const size_t len = 16384;
	struct mem_ctx13 d, e, warm;
	struct mem_ctx12 d12, e12, warm12;
	uint64_t em0, em1;
	long extra_init, extra_after, extra12_init, extra12_after;
	/* What a key may hold after its first message: its check state (MEMORY_TARGET)
	 * and its GCM128 context. */
	long held = MEMORY_TARGET, g;
	int ok;

	printf("\n3. Memory: live heap bytes (CRYPTO_set_mem_functions, counted from the start)\n");
	printf("   one AES-%zu-GCM EVP_CIPHER_CTX, eip93 vs default; messages of %zu bytes "
	       "(engine-eligible)\n\n",
	       B.keylen * 8, len);
	/* Warm-up lives: one-time per-process state (error stacks, caches) is not the context's. */
	if (mem_life13(B.c_dflt, len, 3, &warm) != 0 || mem_life13(B.c_eip93, len, 3, &warm) != 0 ||
	    mem_life13(B.c_eip93, len, 3, &warm) != 0 || mem_life12(B.c_dflt, len, &warm12) != 0 ||
	    mem_life12(B.c_eip93, len, &warm12) != 0) {
		fail("memory warm-up");
		return;
	}
	g = gcm128_bytes();
	if (g < 0) {
		fail("memory: a GCM128 context cannot be measured");
		return;
	}
	held += g;
	printf("   an open key also holds libcrypto's GCM128 context (H and its tables; "
	       "%s): %ld bytes;\n   a key's state may be %ld bytes\n\n",
	       strcmp(B.kalg, "ctr(aes-eip93)") == 0 ? "GHASH and the tag"
						     : "the sampled tag checks",
	       g, held);
	em0 = prov_counter("eip93-engine-messages");
	ok = mem_life13(B.c_dflt, len, 3, &d) == 0 && mem_life13(B.c_eip93, len, 3, &e) == 0 &&
	     mem_life12(B.c_dflt, len, &d12) == 0 && mem_life12(B.c_eip93, len, &e12) == 0;
	em1 = prov_counter("eip93-engine-messages");
	if (!ok) {
		fail("memory measurement");
		return;
	}
	if (em1 - em0 != 4)
		fail("memory: %llu of 4 eip93 messages took the engine",
		     (unsigned long long)(em1 - em0));
	extra_init = e.at_init - d.at_init;
	extra_after = e.after_msg - d.after_msg;
	extra12_init = e12.at_init - d12.at_init;
	extra12_after = e12.after_rec - d12.after_rec;

	printf("   %-44s %8s %8s %8s   %s\n", "context at rest", "default", "eip93", "extra",
	       "target");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.3 ctx after init (key + IV)", d.at_init,
	       e.at_init, extra_init, extra_init <= MEMORY_TARGET ? "<=1024" : ">1024 !");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.3 ctx after 3 completed messages",
	       d.after_msg, e.after_msg, extra_after,
	       extra_after <= MEMORY_TARGET ? "<=1024" : ">1024 !");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.2 ctx after init (key + fixed IV)",
	       d12.at_init, e12.at_init, extra12_init,
	       extra12_init <= MEMORY_TARGET ? "<=1024" : ">1024 !");
	printf("   %-44s %8ld %8ld %8ld   %s\n", "TLS1.2 ctx after a completed record",
	       d12.after_rec, e12.after_rec, extra12_after,
	       extra12_after <= MEMORY_TARGET ? "<=1024" : ">1024 !");

	printf("\n   %-44s %8s %8s   %s\n", "across one message (live after - before)", "default",
	       "eip93", "eip93 peak during it (transient)");
	{
		static const char *const what[3] = { "TLS1.3 enc, first (opens + checks the key)",
						     "TLS1.3 enc, next", "TLS1.3 dec, next" };

		/*
		 * The first message opens the key on the engine: besides its sockets
		 * (kernel memory) the key then holds its integrity-check state (an
		 * AES-ECB context with the key schedule) and its GCM128 context, until
		 * the key changes or the context is freed.
		 * That, and nothing else, may stay.
		 */
		for (int i = 0; i < 3; i++)
			printf("   %-44s %8ld %8ld   %+ld bytes %s\n", what[i], d.across[i],
			       e.across[i], e.peak[i],
			       e.across[i] == 0		       ? "(none held after: ok)"
			       : i == 0 && e.across[i] <= held ? "(the key's state: ok)"
							       : "(HELD !)");
		printf("   %-44s %8ld %8ld   %+ld bytes %s\n", "TLS1.2 enc record (opens the key)",
		       d12.across, e12.across, e12.peak,
		       e12.across == 0	    ? "(none held after: ok)"
		       : e12.across <= held ? "(the key's state: ok)"
					    : "(HELD !)");
	}
	printf("   %-44s %8ld %8ld\n", "freed context: live after free - before new", d.leak,
	       e.leak);
	if (e.across[0] > held)
		fail("eip93 holds %ld bytes after its first message", e.across[0]);
	for (int i = 1; i < 3; i++)
		if (e.across[i] != 0)
			fail("eip93 holds %ld bytes after message %d", e.across[i], i);
	if (e12.across > held || e.leak != 0 || e12.leak != 0)
		fail("eip93 holds memory after a record or a freed context");
}
