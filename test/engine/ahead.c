// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-engine-check, the command ahead: keystream ahead on AF_ALG (the
 * backend's worker thread) across fork.  The parent runs a TLS 1.3-shaped
 * stream (nonce = static IV XOR sequence number, 16 KiB records) until
 * keystream computed ahead is used, so its worker exists and waits; then it
 * forks.  The child (bounded by alarm(): a hang fails, never blocks the
 * suite) goes on with the parent's stream on its inherited context and
 * runs a stream of its own: every record equal to the default provider's,
 * and keystream ahead used in the child (its own worker, on condition
 * variables a waiting parent thread no longer blocks).  Then the parent's
 * stream goes on too.
 */
#include "engine_check.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REC 16384
#define HDR 5

struct stream {
	EVP_CIPHER_CTX *eng, *ref;
	unsigned char key[16], siv[IVLEN];
	uint64_t seq;
};

static int stream_init(struct stream *s, unsigned char tag)
{
	memset(s->key, tag, sizeof(s->key));
	memset(s->siv, tag ^ 0x5a, sizeof(s->siv));
	s->seq = 0;
	s->eng = EVP_CIPHER_CTX_new();
	s->ref = EVP_CIPHER_CTX_new();
	return s->eng != NULL && s->ref != NULL &&
	       EVP_EncryptInit_ex2(s->eng, c_test[0], s->key, NULL, NULL) &&
	       EVP_EncryptInit_ex2(s->ref, c_ref[0], s->key, NULL, NULL);
}

static void stream_free(struct stream *s)
{
	EVP_CIPHER_CTX_free(s->eng);
	EVP_CIPHER_CTX_free(s->ref);
}

/* One record on @c with nonce @iv into @out (REC + tag bytes); 1 on success. */
static int record(EVP_CIPHER_CTX *c, const unsigned char *iv, const unsigned char *pt,
		  unsigned char *out)
{
	static const unsigned char hdr[HDR] = { 0x17, 0x03, 0x03, 0x40, 0x11 };
	int n = 0, m = 0;

	return EVP_EncryptInit_ex2(c, NULL, NULL, iv, NULL) &&
	       EVP_EncryptUpdate(c, NULL, &n, hdr, HDR) && EVP_EncryptUpdate(c, out, &n, pt, REC) &&
	       n == REC && EVP_EncryptFinal_ex(c, out + n, &m) && m == 0 &&
	       EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_AEAD_GET_TAG, TAGLEN, out + REC) > 0;
}

/* @n records of @s, each compared with the default provider's; the records that differed. */
static int stream_run(struct stream *s, int n, uint64_t *rng)
{
	static unsigned char pt[REC], a[REC + TAGLEN], b[REC + TAGLEN];
	int wrong = 0;

	for (int i = 0; i < n; i++, s->seq++) {
		unsigned char iv[IVLEN];

		memcpy(iv, s->siv, IVLEN);
		for (int j = 0; j < 8; j++)
			iv[IVLEN - 1 - j] ^= (unsigned char)(s->seq >> (8 * j));
		for (size_t j = 0; j < sizeof(pt); j += 8) {
			*rng = *rng * 6364136223846793005ULL + 1442695040888963407ULL;
			memcpy(pt + j, rng, 8);
		}
		if (!record(s->eng, iv, pt, a) || !record(s->ref, iv, pt, b) ||
		    memcmp(a, b, sizeof(a)) != 0)
			wrong++;
	}
	return wrong;
}

static int child(struct stream *p, uint64_t rng)
{
	struct stream c;
	uint64_t u0 = counter("eip93-keystream-ahead-used"), u1;
	int wrong;

	line_prefix = "    child: ";
	n_pass = n_fail = 0;
	alarm(120); /* a hang fails the child (SIGALRM), never blocks the suite */
	wrong = stream_run(p, 8, &rng);
	check(wrong == 0, "the parent's stream goes on in the child: 8 records correct (%d wrong)",
	      wrong);
	check(stream_init(&c, 0xc1), "a stream of the child's own");
	wrong = stream_run(&c, 10, &rng);
	check(wrong == 0, "the child's own stream: 10 records correct (%d wrong)", wrong);
	u1 = counter("eip93-keystream-ahead-used");
	check(u1 > u0,
	      "the child's records took keystream computed ahead by its own worker (+%" PRIu64 ")",
	      u1 - u0);
	stream_free(&c);
	return n_fail == 0 ? 0 : 1;
}

int cmd_ahead(void)
{
	struct stream p;
	uint64_t rng = 0xa4ead, u0, u1;
	int wrong, st = 0;
	pid_t pid;

	if (!check(stream_init(&p, 0x93), "setup"))
		return 0;
	u0 = counter("eip93-keystream-ahead-used");
	wrong = stream_run(&p, 6, &rng);
	u1 = counter("eip93-keystream-ahead-used");
	check(wrong == 0, "parent: a TLS 1.3 stream, 6 records correct (%d wrong)", wrong);
	check(u1 > u0, "parent: records took keystream computed ahead (+%" PRIu64 ")", u1 - u0);

	fflush(stdout);
	pid = fork(); /* the parent's worker exists and waits for work */
	if (pid == 0)
		_exit(child(&p, rng ^ 0xc41d));
	if (!check(pid > 0, "fork"))
		return 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the child passed its checks (status %#x%s)",
	      st, WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM ? ": it hung" : "");
	u0 = counter("eip93-keystream-ahead-used");
	wrong = stream_run(&p, 6, &rng);
	u1 = counter("eip93-keystream-ahead-used");
	check(wrong == 0 && u1 > u0,
	      "parent: its stream goes on after the fork, keystream ahead used (+%" PRIu64
	      ", %d wrong)",
	      u1 - u0, wrong);
	stream_free(&p);
	return 1;
}
