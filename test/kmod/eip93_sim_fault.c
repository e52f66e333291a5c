// SPDX-License-Identifier: GPL-2.0
/*
 * eip93_sim - simulated EIP93 AES engine.  TEST-ONLY.
 *
 * The keystream faults: the parameters fault, fault_block, fault_page,
 * fault_after, fault_layout and faults (described in eip93_sim_core.c's
 * header).  A fault is decided per request before the engine computes, so
 * that what the fault needs is kept first (the input for fault 2 and 3, what
 * the destination held for fault 8), and applied to the computed result.
 * Which requests, and where their payload starts, fault_layout says: by the
 * counter of ctr(aes-eip93) requests (sim_payload_off(), 0) or every request
 * of any mode from its byte 0 (1).  Where a fault lands is counted from the
 * request's first payload byte; the
 * page faults (6, 7, 8 with fault_page) land at a boundary between two
 * entries of the request's source or destination scatterlist, which is where
 * a DMA engine's descriptors and the pages break.
 */

#include "eip93_sim.h"

#include <crypto/scatterwalk.h>
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

enum {
	SIM_FAULT_FLIP = 1, /* a bit of payload block fault_block */
	SIM_FAULT_NOWRITE,  /* nothing written: the input stays */
	SIM_FAULT_EDGE,	    /* 16 bytes before the first destination edge: input stays */
	SIM_FAULT_TAIL,	    /* a bit of the first of the last 16 bytes */
	SIM_FAULT_TAGMASK,  /* a bit of the request's first block */
	SIM_FAULT_SRC_PAGE, /* a bit of the byte read at a source boundary */
	SIM_FAULT_DST_PAGE, /* a bit of the byte written at a destination boundary */
	SIM_FAULT_SKIP,	    /* a block never written: the destination keeps its bytes */
};

enum {
	SIM_LAYOUT_COUNTER, /* ctr(aes-eip93) requests by counter: gcm_base's, CTR-only */
	SIM_LAYOUT_EVERY,   /* every request of every mode, payload from byte 0 */
};

static unsigned int sim_fault;
static int sim_fault_block;
static int sim_fault_page = 1;
static unsigned int sim_fault_after; /* only the (ordered) worker counts it down */
static unsigned int sim_fault_layout = SIM_LAYOUT_COUNTER;
static atomic64_t sim_faults = ATOMIC64_INIT(0);

module_param_named(fault, sim_fault, uint, 0644);
MODULE_PARM_DESC(fault,
		 "keystream fault: 0 none, 1 flip a bit, 2 write nothing, 3 stale page edge, "
		 "4 flip a bit 16 bytes before the end, 5 tagmask: flip a bit in the "
		 "request's first block (gcm_base: the tag mask; CTR-only: payload block 0), "
		 "6 flip a bit of the byte read at source boundary fault_page, 7 the same at "
		 "destination boundary fault_page, 8 skip: leave a block as the destination "
		 "held it (fault_page 0: block fault_block, else at destination boundary "
		 "fault_page)");
module_param_named(fault_block, sim_fault_block, int, 0644);
MODULE_PARM_DESC(fault_block, "fault=1, fault=8 with fault_page=0: payload block (-1 last, "
			      "-2 random middle)");
module_param_named(fault_page, sim_fault_page, int, 0644);
MODULE_PARM_DESC(fault_page,
		 "fault=6, 7, 8: the k-th boundary between two scatterlist entries inside the "
		 "payload; k > 0: the byte (fault 8: 16 bytes) after it, -k: the byte (16 bytes) "
		 "before it; 0: none (fault 8: use fault_block)");
module_param_named(fault_after, sim_fault_after, uint, 0644);
MODULE_PARM_DESC(fault_after,
		 "requests the faults would touch (fault_layout 0: counter 1 gcm_base, 2 "
		 "CTR-only; 1: every request with payload) left alone before the faults start");
module_param_named(fault_layout, sim_fault_layout, uint, 0644);
MODULE_PARM_DESC(fault_layout,
		 "which requests the faults touch: 0 ctr(aes-eip93) requests by their counter "
		 "(1: gcm_base, 2: CTR-only); 1 every ctr, cbc and ecb request, payload from "
		 "byte 0");
module_param_cb(faults, &sim_counter_ops, &sim_faults, 0644);
MODULE_PARM_DESC(faults, "requests given a keystream fault");

#define SIM_CTR_GCM_BASE 1 /* J0: gcm_base's request starts with the tag-mask block */
#define SIM_CTR_CTR_ONLY 2 /* J0 + 1: the CTR-only composition's payload alone */

/* The last 32 bits of @req's counter block (big endian); 0 without an IV. */
static u32 sim_ctr(const struct skcipher_request *req)
{
	return req->iv ? sim_be32_lo(req->iv) : 0;
}

/*
 * Where the payload of @req starts: 16 (gcm_base: counter 1, the tag-mask
 * block first), 0 (CTR-only: counter 2), or -1 for any other counter (not a
 * message's first request: never faulted but as a continuation).
 */
static int sim_payload_off(const struct skcipher_request *req)
{
	u32 ctr = sim_ctr(req);

	if (ctr == SIM_CTR_GCM_BASE)
		return SIM_BLK;
	if (ctr == SIM_CTR_CTR_ONLY)
		return 0;
	return -1;
}

/* Does @req go on where @stream's message stopped (same tfm, nonce, next counter)? */
static bool sim_continues(const struct skcipher_request *req, const struct sim_stream *stream)
{
	return stream->open && req->iv && sim_ctr(req) == stream->next_ctr &&
	       !memcmp(req->iv, stream->nonce, sizeof(stream->nonce));
}

/*
 * The boundaries between two entries of @sg inside the payload: after its
 * first byte (at @pre) and before its end (@len).  Returns the offset of the
 * @k-th (from 1), 0 when there are fewer; *@n (unless NULL): how many there
 * are.  Empty entries break nothing.  (gcm_base's tag-mask block is an entry
 * of its own: its end is the payload's start, not a boundary inside it.)
 */
static unsigned int sim_boundary(struct scatterlist *sg, unsigned int len, unsigned int pre,
				 unsigned int k, unsigned int *n)
{
	unsigned int off = 0, i = 0, at = 0;

	for (; sg && off < len; sg = sg_next(sg)) {
		if (!sg->length)
			continue;
		off += sg->length;
		if (off > pre && off < len && ++i == k)
			at = off;
	}
	if (n)
		*n = i;
	return at;
}

/*
 * Boundary @k (from 1) of the message as an offset in @req, whose message
 * had @base boundaries on this side before it: the join (offset 0) when @req
 * continues the message and @k is the next one, else one of @req's own;
 * -1 when it lies in another request or there is none.
 */
static int sim_msg_boundary(struct scatterlist *sg, unsigned int len,
			    const struct sim_fault_state *st, unsigned int base, unsigned int k)
{
	unsigned int e;

	if (k <= base)
		return -1;
	k -= base;
	if (st->join && k-- == 1)
		return 0;
	e = sim_boundary(sg, len, st->pre, k, NULL);
	return e ? (int)e : -1;
}

/* fault_page as a boundary number (from 1; 0: none). */
static unsigned int sim_page_k(int page)
{
	return page < 0 ? 0U - (unsigned int)page : (unsigned int)page;
}

/* Payload block @blk (-1: the last, -2: a random middle one) of @nblk, or -1 for none. */
static int sim_pick_block(int blk, unsigned int nblk)
{
	if (blk == -1)
		blk = nblk - 1;
	else if (blk == -2)
		blk = nblk > 2 ? 1 + get_random_u32() % (nblk - 2) : 0;
	return blk < 0 || (unsigned int)blk >= nblk ? -1 : blk;
}

static void sim_flip(struct skcipher_request *req, unsigned int off)
{
	u8 b;

	scatterwalk_map_and_copy(&b, req->dst, off, 1, 0);
	b ^= 0x01;
	scatterwalk_map_and_copy(&b, req->dst, off, 1, 1);
}

/*
 * Fault 8: the bytes the engine is not to write (st->skip_off, skip_len;
 * skip_len stays 0 when the request has no such block or boundary).
 */
static void sim_skip_place(struct skcipher_request *req, struct sim_fault_state *st)
{
	unsigned int len = req->cryptlen, pre = st->pre;
	int page = READ_ONCE(sim_fault_page), blk, e;

	if (!page) {
		blk = sim_pick_block(READ_ONCE(sim_fault_block), DIV_ROUND_UP(len - pre, SIM_BLK));
		if (blk < 0)
			return;
		st->skip_off = pre + SIM_BLK * blk;
		st->skip_len = min_t(unsigned int, SIM_BLK, len - st->skip_off);
		return;
	}
	e = sim_msg_boundary(req->dst, len, st, st->dst_base, sim_page_k(page));
	/* The bytes before a join are the earlier request's: already written. */
	if (e < 0 || (page < 0 && !e))
		return;
	if (page > 0) {
		st->skip_off = e;
		st->skip_len = min_t(unsigned int, SIM_BLK, len - e);
	} else {
		st->skip_off = max_t(unsigned int, e - SIM_BLK, pre);
		st->skip_len = e - st->skip_off;
	}
}

/*
 * Follow @stream's message through @req (a first request at payload offset
 * @off, or a continuation: @off < 0); false when @req is neither.
 */
static bool sim_stream_step(struct skcipher_request *req, int off, struct sim_stream *stream,
			    struct sim_fault_state *st)
{
	unsigned int nsrc, ndst;

	if (off >= 0) {
		memcpy(stream->nonce, req->iv, sizeof(stream->nonce));
		stream->open = true;
	} else if (sim_continues(req, stream)) {
		st->join = true;
		st->src_base = stream->src_bounds;
		st->dst_base = stream->dst_bounds;
	} else {
		return false;
	}
	st->pre = off >= 0 ? off : 0;
	sim_boundary(req->src, req->cryptlen, st->pre, 0, &nsrc);
	sim_boundary(req->dst, req->cryptlen, st->pre, 0, &ndst);
	stream->src_bounds = st->src_base + st->join + nsrc;
	stream->dst_bounds = st->dst_base + st->join + ndst;
	stream->next_ctr = sim_ctr(req) + DIV_ROUND_UP(req->cryptlen, SIM_BLK);
	return true;
}

/*
 * fault_layout 0: is @req a ctr(aes-eip93) request whose counter names its
 * layout, or a faulted message's continuation carrying fault @kind, past
 * fault_after?  Sets st->pre and the message's boundaries.
 */
static bool sim_fault_by_counter(struct skcipher_request *req, unsigned int kind,
				 struct sim_stream *stream, struct sim_fault_state *st)
{
	int off = sim_payload_off(req);

	if (!sim_stream_step(req, off, stream, st) || req->cryptlen <= st->pre)
		return false;
	if (st->join)
		/* A continuation carries the page faults of a message that is faulted. */
		return stream->faulted &&
		       (kind == SIM_FAULT_SRC_PAGE || kind == SIM_FAULT_DST_PAGE ||
			(kind == SIM_FAULT_SKIP && READ_ONCE(sim_fault_page)));
	stream->faulted = !sim_fault_after;
	if (sim_fault_after) {
		sim_fault_after--;
		return false;
	}
	return true;
}

void sim_fault_decide(struct skcipher_request *req, bool armed, enum sim_mode mode,
		      struct sim_stream *stream, struct sim_fault_state *st)
{
	unsigned int kind = READ_ONCE(sim_fault);

	memset(st, 0, sizeof(*st));
	if (!kind || kind > SIM_FAULT_SKIP || !armed)
		return;
	if (READ_ONCE(sim_fault_layout) == SIM_LAYOUT_EVERY) {
		/* Every request a message of its own, its payload from byte 0. */
		stream->open = false;
		if (!req->cryptlen)
			return;
		if (sim_fault_after) {
			sim_fault_after--;
			return;
		}
	} else if (mode != SIM_MODE_CTR || !sim_fault_by_counter(req, kind, stream, st)) {
		return;
	}
	if (kind == SIM_FAULT_NOWRITE || kind == SIM_FAULT_EDGE) {
		/* Writing nothing leaves the input where the output goes: keep it. */
		st->saved = kvmalloc(req->cryptlen, GFP_KERNEL);
		if (!st->saved)
			return;
		scatterwalk_map_and_copy(st->saved, req->src, 0, req->cryptlen, 0);
	} else if (kind == SIM_FAULT_SKIP) {
		/* What the destination holds now is what an unwritten block shows. */
		sim_skip_place(req, st);
		if (!st->skip_len)
			return;
		scatterwalk_map_and_copy(st->skip_old, req->dst, st->skip_off, st->skip_len, 0);
	}
	st->kind = kind;
}

void sim_fault_apply(struct skcipher_request *req, struct sim_fault_state *st)
{
	unsigned int len = req->cryptlen, pre = st->pre, off, e;
	int page = READ_ONCE(sim_fault_page), blk, b;

	switch (st->kind) {
	case SIM_FAULT_FLIP:
		blk = sim_pick_block(READ_ONCE(sim_fault_block), DIV_ROUND_UP(len - pre, SIM_BLK));
		if (blk < 0)
			return;
		sim_flip(req, pre + SIM_BLK * blk);
		break;
	case SIM_FAULT_NOWRITE:
		scatterwalk_map_and_copy(st->saved + pre, req->dst, pre, len - pre, 1);
		break;
	case SIM_FAULT_EDGE:
		e = sim_boundary(req->dst, len, pre, 1, NULL);
		if (!e)
			return;
		off = max_t(unsigned int, e - SIM_BLK, pre);
		scatterwalk_map_and_copy(st->saved + off, req->dst, off, e - off, 1);
		break;
	case SIM_FAULT_TAIL:
		if (len < pre + SIM_BLK)
			return;
		sim_flip(req, len - SIM_BLK);
		break;
	case SIM_FAULT_TAGMASK:
		sim_flip(req, 0);
		break;
	case SIM_FAULT_SRC_PAGE:
	case SIM_FAULT_DST_PAGE:
		/* A byte read (source) or written (destination) wrong at the boundary. */
		b = sim_msg_boundary(st->kind == SIM_FAULT_SRC_PAGE ? req->src : req->dst, len, st,
				     st->kind == SIM_FAULT_SRC_PAGE ? st->src_base : st->dst_base,
				     sim_page_k(page));
		/* The byte before a join is the earlier request's: already written. */
		if (b < 0 || (page < 0 && !b))
			return;
		sim_flip(req, page > 0 ? b : b - 1);
		break;
	case SIM_FAULT_SKIP:
		scatterwalk_map_and_copy(st->skip_old, req->dst, st->skip_off, st->skip_len, 1);
		break;
	default:
		return;
	}
	atomic64_inc(&sim_faults);
}

void sim_fault_done(struct sim_fault_state *st)
{
	kvfree(st->saved);
	st->saved = NULL;
}
