/* SPDX-License-Identifier: GPL-2.0 */
/*
 * eip93_sim - simulated EIP93 AES engine.  TEST-ONLY.
 *
 * What the module's three files share: eip93_sim_core.c (ctr(aes-eip93), the
 * queue, the timing model, the other knobs), eip93_sim_modes.c
 * (cbc(aes-eip93), ecb(aes-eip93) and the arithmetic of every mode with the
 * driver's modelled bugs: bug_direction, bug_ctr32) and eip93_sim_fault.c
 * (the keystream faults: the fault* parameters).  Every parameter is
 * described in eip93_sim_core.c's header.
 */
#ifndef EIP93_SIM_H
#define EIP93_SIM_H

#include <crypto/internal/skcipher.h>
#include <linux/moduleparam.h>
#include <linux/types.h>

#define SIM_BLK 16

/*
 * The software AES cipher the fallbacks are built on: "aes-generic" up to
 * Linux 6.x, "aes-lib" on 7.x (no aes-generic there; a template over a name
 * that does not exist would fail every request).  kmod.sh passes the one the
 * target kernel has (-DEIP93_SIM_AES=...).
 */
#ifndef EIP93_SIM_AES
#define EIP93_SIM_AES "aes-generic"
#endif

/* The mode of a transform's algorithm. */
enum sim_mode {
	SIM_MODE_CTR,
	SIM_MODE_CBC,
	SIM_MODE_ECB,
};

/* The "ops"-style counter parameter: an atomic64_t, writable to reset. */
extern const struct kernel_param_ops sim_counter_ops;

/*
 * One tfm's message in progress, for the page faults: a request that goes on
 * where the previous one's counter stopped (same nonce) continues its
 * message, as /dev/crypto's bounce path cuts one into page-sized requests;
 * the join between the two is a boundary of the message like one between
 * two scatterlist entries.  Only the ordered worker touches it.
 */
struct sim_stream {
	u8 nonce[12];
	u32 next_ctr;		 /* the counter a continuation starts with */
	unsigned int src_bounds; /* source boundaries in the message's earlier requests */
	unsigned int dst_bounds; /* destination boundaries, the same */
	bool open;
	bool faulted; /* its first request was past fault_after */
};

/* A transform of any of the three algorithms. */
struct sim_tfm_ctx {
	struct crypto_skcipher *fallback; /* the same mode over EIP93_SIM_AES */
	enum sim_mode mode;
	/*
	 * bug_direction: a decrypt request on this transform (after the
	 * registration) has marked it inbound, as the real driver's decrypt sets
	 * the direction bit in the transform's SA record and nothing clears it.
	 */
	bool inbound;
	struct sim_stream stream; /* eip93_sim_fault.c's */
};

/* The last 32 bits of the 16-byte block @iv (big endian). */
static inline u32 sim_be32_lo(const u8 *iv)
{
	return (u32)iv[12] << 24 | (u32)iv[13] << 16 | (u32)iv[14] << 8 | iv[15];
}

/*
 * One request's fault, decided before the engine computes (what the
 * destination held, or the input, may have to be kept first) and applied
 * after it computed successfully.
 */
struct sim_fault_state {
	unsigned int kind;     /* the fault parameter's value when it was decided; 0: none */
	unsigned int pre;      /* bytes before the payload (0 or the tag-mask block) */
	bool join;	       /* the request continues a message: its start is a boundary */
	unsigned int src_base; /* boundaries of the message before this request */
	unsigned int dst_base;
	u8 *saved;	       /* the request's input (fault 2, 3) */
	unsigned int skip_off; /* fault 8: the bytes left as they were */
	unsigned int skip_len;
	u8 skip_old[SIM_BLK]; /* fault 8: what the destination held there */
};

/*
 * Decide @req's fault (@armed: the registration's self-tests are over; @mode:
 * its algorithm's; @stream: its tfm's message in progress) and keep what
 * applying it needs; st->kind stays 0 when the request is not faulted.  Only
 * the ordered worker calls it (it counts fault_after down).
 */
void sim_fault_decide(struct skcipher_request *req, bool armed, enum sim_mode mode,
		      struct sim_stream *stream, struct sim_fault_state *st);
/* Apply the fault to @req's computed result (only when it computed). */
void sim_fault_apply(struct skcipher_request *req, struct sim_fault_state *st);
/* Free what sim_fault_decide() kept. */
void sim_fault_done(struct sim_fault_state *st);

/* eip93_sim_core.c: what every algorithm of the module shares. */
int sim_tfm_init(struct crypto_skcipher *tfm, enum sim_mode mode, const char *fallback);
void sim_tfm_exit(struct crypto_skcipher *tfm);
int sim_setkey(struct crypto_skcipher *tfm, const u8 *key, unsigned int keylen);
int sim_encrypt(struct skcipher_request *req);
int sim_decrypt(struct skcipher_request *req);
/*
 * Wait until the kernel has tested the algorithm of @driver (its lookup by
 * driver name waits for its self-test: during the registration up to 6.x,
 * after it on 7.x, where crypto_register_skcipher() returns first).
 */
void sim_wait_tested(const char *driver);

/* eip93_sim_modes.c: register cbc(aes-eip93) and ecb(aes-eip93), or undo it. */
int sim_modes_register(void);
void sim_modes_unregister(void);
/* sim_wait_tested() for each of them. */
void sim_modes_wait_tested(void);
/*
 * At submission: -EINVAL for a CBC/ECB length that is not whole blocks (as
 * the driver refuses it, synchronously); a decrypt marks the transform
 * inbound once @armed.  0: queue it.
 */
int sim_modes_submit(struct skcipher_request *req, bool encrypt, bool armed);
/*
 * The engine's arithmetic of @req through its transform's fallback (@fb: the
 * request to use, in @req's context), the modelled bugs applied once @armed.
 */
int sim_modes_crypt(struct skcipher_request *req, struct skcipher_request *fb, bool encrypt,
		    bool armed);

#endif
