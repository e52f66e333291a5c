// SPDX-License-Identifier: Apache-2.0
/*
 * The composition self-test the gate asks (gcm.h): does this libcrypto's
 * GCM128 leave whole blocks to a stream function, as the CTR-only
 * composition (compose.c) needs?
 */
#include "gcm.h"

#include <errno.h>
#include <string.h>

#include <openssl/modes.h>

#include "../../engine/shape.h"

#define BLK 16

/* The self-test's stand-ins: a block function and a stream that count their calls. */
struct probe_key {
	unsigned int blocks, streams;
};

static void probe_block(const unsigned char in[BLK], unsigned char out[BLK], const void *key)
{
	struct probe_key *k;
	void *q;

	memcpy(&q, &key, sizeof(q)); /* GCM128 hands its key back as const void * */
	k = q;
	for (int i = 0; i < BLK; i++)
		out[i] = (unsigned char)(in[i] ^ 0x5a);
	k->blocks++;
}

static void probe_stream(const unsigned char *in, unsigned char *out, size_t blocks,
			 const void *key, const unsigned char ivec[BLK])
{
	struct probe_key *k;
	void *q;

	memcpy(&q, &key, sizeof(q));
	k = q;
	(void)in;
	(void)out;
	(void)ivec;
	k->streams += (unsigned int)blocks;
}

int eip93_compose_selftest(void)
{
	static const unsigned char iv[EIP93_ENGINE_IVLEN] = { 1 };
	unsigned char in[4 * BLK + 3] = { 0 }, out[sizeof(in)];
	struct probe_key k = { 0, 0 };
	GCM128_CONTEXT *g = CRYPTO_gcm128_new(&k, probe_block);
	int ok;

	if (g == NULL)
		return -ENOMEM;
	memset(out, 0xee, sizeof(out));
	CRYPTO_gcm128_setiv(g, iv, sizeof(iv));
	ok = CRYPTO_gcm128_encrypt_ctr32(g, in, out, sizeof(in), probe_stream) == 0;
	/* Its whole blocks left to the stream and untouched, the partial one from a block call. */
	ok = ok && k.streams == 4 && out[0] == 0xee && out[(size_t)4 * BLK - 1] == 0xee &&
	     out[(size_t)4 * BLK] != 0xee;
	CRYPTO_gcm128_release(g);
	return ok ? 0 : -ENOTSUP;
}
