// SPDX-License-Identifier: Apache-2.0
/*
 * provider/calib_decide.c: from synthetic measured tables to the window.
 * Engine wins everywhere, loses everywhere, ties within noise, wins only at
 * some sizes (two runs: the longer, the larger on a tie), noisy rows, one
 * case of four losing, too few rounds, and the choice between compositions.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "../../provider/calib_decide.h"

static struct eip93_calib_stat st(double med, double spread)
{
	struct eip93_calib_stat s = { med, med - spread, med + spread };

	return s;
}

/* Every row: software @sw MB/s, engine @eng MB/s, each +-@spread. */
static void fill(struct eip93_calib_table *t, double sw, double eng, double spread)
{
	memset(t, 0, sizeof(*t));
	t->composition = "gcm_base(ctr(aes-eip93),ghash-generic)";
	t->rounds = 5;
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++)
		for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
			t->cell[s][k].sw = st(sw, spread);
			t->cell[s][k].eng = st(eng, spread);
		}
}

static void set_size(struct eip93_calib_table *t, int s, double sw, double eng, double spread)
{
	for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
		t->cell[s][k].sw = st(sw, spread);
		t->cell[s][k].eng = st(eng, spread);
	}
}

/* Decide on t: the engine's window must be [min, max]. */
static void decide_window(struct eip93_calib_table *t, struct eip93_calib_choice *c, long min,
			  long max)
{
	eip93_calib_decide(t, c);
	CHECK_EQ_INT(c->min_size, min);
	CHECK_EQ_INT(c->max_size, max);
}

/* Decide on t: off, the reason saying why. */
static void decide_off(struct eip93_calib_table *t, struct eip93_calib_choice *c, const char *why)
{
	eip93_calib_decide(t, c);
	CHECK_EQ_INT(c->engine, 0);
	CHECK(strstr(c->reason, why) != NULL);
}

static void test_cells(void)
{
	struct eip93_calib_cell c;

	memset(&c, 0, sizeof(c));
	c.sw = st(10.0, 0.2);
	c.eng = st(20.0, 0.2);
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_WIN);
	c.eng = st(5.0, 0.2);
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_LOSE);
	c.eng = st(10.1, 0.2); /* overlapping ranges */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_TIE);
	c.sw = st(10.0, 0.01);
	c.eng = st(10.3, 0.01); /* disjoint, but only 3% faster */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_TIE);
	c.eng = st(10.6, 0.01); /* 6% */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_WIN);
	c.eng = st(30.0, 8.0); /* spread 16 of 30, but every round above software's: a win */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_WIN);
	c.sw = st(10.0, 3.0);
	c.eng = st(12.0, 8.0); /* overlapping and spread 16 of 12: noisy */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_NOISY);
	c.eng = st(1.0, 0.9); /* noisy, but every round below software's: a loss */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_LOSE);
	c.eng = st(0.0, 0.0); /* nothing measured */
	CHECK_EQ_INT(eip93_calib_cell_outcome(&c), EIP93_CELL_NOISY);
	CHECK(strcmp(eip93_calib_outcome_name(EIP93_CELL_TIE), "tie") == 0);
}

static void test_tables(void)
{
	struct eip93_calib_table t;
	struct eip93_calib_choice c;

	fill(&t, 10.0, 30.0, 0.5); /* wins everywhere */
	eip93_calib_decide(&t, &c);
	CHECK_EQ_INT(c.engine, 1);
	CHECK_EQ_INT(c.min_size, 1024);
	CHECK_EQ_INT(c.max_size, 65536);
	CHECK(strstr(c.reason, "from 1024 to 65536 bytes") != NULL);

	fill(&t, 10.0, 3.0, 0.5); /* loses everywhere */
	decide_off(&t, &c, "no payload size");
	CHECK(strstr(c.reason, "engine 3.000 MB/s [2.500-3.500] vs software 10.000 MB/s") != NULL);

	fill(&t, 10.0, 10.2, 0.5); /* ties within noise */
	decide_off(&t, &c, ", tie");

	/* Wins only from 8 KiB up (the usual shape: latency dominates small payloads). */
	fill(&t, 10.0, 5.0, 0.2);
	for (int s = 3; s < EIP93_CALIB_NSIZES; s++)
		set_size(&t, s, 10.0, 14.0, 0.2);
	eip93_calib_decide(&t, &c);
	CHECK_EQ_INT(c.engine, 1);
	CHECK_EQ_INT(c.min_size, 8192);
	CHECK_EQ_INT(c.max_size, 65536);
	CHECK_EQ_INT(c.size_wins[2], 0);
	CHECK_EQ_INT(c.size_wins[3], 1);

	/* Two runs: 2-4 KiB and 16-64 KiB: the longer one. */
	fill(&t, 10.0, 5.0, 0.2);
	set_size(&t, 1, 10.0, 14.0, 0.2);
	set_size(&t, 2, 10.0, 14.0, 0.2);
	for (int s = 4; s < EIP93_CALIB_NSIZES; s++)
		set_size(&t, s, 10.0, 14.0, 0.2);
	decide_window(&t, &c, 16384, 65536);

	/* Two runs of equal length (1-2 KiB, 16-32 KiB): the larger sizes. */
	fill(&t, 10.0, 5.0, 0.2);
	set_size(&t, 0, 10.0, 14.0, 0.2);
	set_size(&t, 1, 10.0, 14.0, 0.2);
	set_size(&t, 4, 10.0, 14.0, 0.2);
	set_size(&t, 5, 10.0, 14.0, 0.2);
	decide_window(&t, &c, 16384, 32768);

	/* A noisy row inside the run splits it (1-8 KiB is longer than 32-64 KiB). */
	fill(&t, 10.0, 14.0, 0.2);
	t.cell[4][1].eng = st(14.0, 6.0);
	eip93_calib_decide(&t, &c);
	CHECK_EQ_INT(c.size_wins[4], 0);
	CHECK_EQ_INT(c.min_size, 1024);
	CHECK_EQ_INT(c.max_size, 8192);

	/* Every row noisy (wide, overlapping rounds): off. */
	fill(&t, 10.0, 12.0, 6.0);
	decide_off(&t, &c, "noisy");
	/* Wide but separated rounds (software 4-16, engine 24-36): a robust win. */
	fill(&t, 10.0, 30.0, 6.0);
	eip93_calib_decide(&t, &c);
	CHECK_EQ_INT(c.engine, 1);
	CHECK_EQ_INT(c.min_size, 1024);

	/* One case of four losing at one size (AES-256 dec at 48 KiB) removes that size. */
	fill(&t, 10.0, 14.0, 0.2);
	t.cell[6][3].eng = st(8.0, 0.2);
	decide_window(&t, &c, 1024, 32768);

	/* Too few rounds to judge noise. */
	fill(&t, 10.0, 30.0, 0.5);
	t.rounds = 2;
	decide_off(&t, &c, "only 2 rounds");
}

static void test_choose(void)
{
	struct eip93_calib_table t[3];
	struct eip93_calib_choice c;

	fill(&t[0], 10.0, 5.0, 0.2);
	t[0].composition = "neon";
	fill(&t[1], 10.0, 5.0, 0.2);
	t[1].composition = "generic";
	fill(&t[2], 10.0, 5.0, 0.2);
	t[2].composition = "lib";
	CHECK_EQ_INT(eip93_calib_choose(t, 3, &c), -1);
	CHECK_EQ_INT(c.engine, 0);
	CHECK(strncmp(c.reason, "neon:", 5) == 0);

	for (int s = 4; s < EIP93_CALIB_NSIZES; s++)
		set_size(&t[1], s, 10.0, 14.0, 0.2); /* generic: 16-64 KiB */
	for (int s = 2; s < EIP93_CALIB_NSIZES; s++)
		set_size(&t[2], s, 10.0, 12.0, 0.2); /* lib: 4-64 KiB, wider */
	CHECK_EQ_INT(eip93_calib_choose(t, 3, &c), 2);
	CHECK_EQ_INT(c.min_size, 4096);
	/* Same window: the larger gain; same gain: the earlier. */
	for (int s = 2; s < EIP93_CALIB_NSIZES; s++)
		set_size(&t[1], s, 10.0, 14.0, 0.2);
	CHECK_EQ_INT(eip93_calib_choose(t, 3, &c), 1);
	for (int s = 2; s < EIP93_CALIB_NSIZES; s++)
		set_size(&t[0], s, 10.0, 14.0, 0.2);
	CHECK_EQ_INT(eip93_calib_choose(t, 3, &c), 0);
}

int main(void)
{
	test_cells();
	test_tables();
	test_choose();
	return check_done("test_calib_decide");
}
