// SPDX-License-Identifier: Apache-2.0
/*
 * The AF_ALG backend's own: one key's sockets (struct afalg_key, an engine
 * key's @priv) and what engine/afalg.c (sockets, the fork registry, the
 * pool, the cap) hands engine/afalg_req.c (the requests, the ops table).
 * Private to those two files.
 */
#ifndef EIP93_AFALG_PRIV_H
#define EIP93_AFALG_PRIV_H

#include "afalg_aio.h"
#include "engine.h"

struct afalg_key {
	int tfm_fd;		       /* bound and keyed; -1 when closed */
	int op_fd;		       /* accepted operation socket; -1 when closed */
	struct afalg_aio aio;	       /* keystream ahead: its own operation socket, aio.fd */
	int aio_off;		       /* keystream ahead failed on this key: not tried again */
	int tainted;		       /* a request failed: its sockets are never pooled */
	struct afalg_key *prev, *next; /* fork registry */
	/* What a pooled transform is (afalg.c "Transforms reused across keys"). */
	char kalg[64];
	size_t keylen;
	enum eip93_engine_mode mode;
	unsigned int timeout_ms;
	unsigned int max_sockets; /* the cap it opened under */
};

/* afalg.c: the ops that open, close and count (engine/engine.h). */
int eip93_afalg_open(struct eip93_engine_key *k, const struct eip93_engine_cfg *c,
		     const unsigned char *key, size_t keylen);
void eip93_afalg_close(struct eip93_engine_key *k);
int eip93_afalg_is_open(const struct eip93_engine_key *k);
unsigned int eip93_afalg_sockets(void);
/*
 * eip93_afalg_ahead_socket() - keystream ahead's own operation socket on
 * @k (accepted once, under the cap and the fork registry): 0 or -errno.
 */
int eip93_afalg_ahead_socket(struct afalg_key *k, unsigned int max_sockets);

#endif /* EIP93_AFALG_PRIV_H */
