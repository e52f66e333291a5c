// SPDX-License-Identifier: Apache-2.0
/*
 * provider/gate.c owns the gate: turning the facts detect/ reads (device
 * tree, CPU, kernel FIPS flag), the SoC rows (provider/soc.c) and the engine
 * rows' probes (handed in by the caller) plus the switch, the configuration
 * and the calibration into one verdict per provider instance, naming the
 * SoC and the row that bound, and the words that explain it
 * (docs/contract.md "Switching on" and "What an operator sees").
 */
#include "gate.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "../detect/detect.h"

#define off eip93_gate_off

void eip93_gate_off(struct eip93_gate *g, const char *fmt, ...)
{
	static const char prefix[] = "disabled: ";
	va_list ap;

	va_start(ap, fmt);
	g->enabled = 0;
	g->kalg[0] = '\0';
	memcpy(g->status, prefix, sizeof(prefix));
	vsnprintf(g->status + sizeof(prefix) - 1, sizeof(g->status) - (sizeof(prefix) - 1), fmt,
		  ap);
	va_end(ap);
}

/* The backend the gate may use: the test builds' force, else engine-backend. */
static int wanted_backend(const struct eip93_gate_input *in)
{
	return in->backend != EIP93_BACKEND_AUTO ? in->backend : in->cfg->backend;
}

/* Engine row @id's engine-backend value (@road 0) or road in words (1); NULL: no such row. */
static const char *row_word(int id, int road)
{
	return eip93_engine_word(id, road ? EIP93_WORD_ROAD : EIP93_WORD_NAME);
}

/* Was the calibration measured on a backend this gate does not use?  @why says how. */
static int calib_backend_mismatch(const struct eip93_gate_input *in, int measured, char *why,
				  size_t len)
{
	int want = wanted_backend(in);

	if (row_word(measured, 0) == NULL)
		measured = EIP93_BACKEND_AFALG; /* the file's absent key */
	if (want != EIP93_BACKEND_AUTO && want != measured) {
		snprintf(why, len, "measured on %s, engine-backend = %s in config",
			 row_word(measured, 1), row_word(want, 0));
		return 1;
	}
	if (eip93_engine_row_by_id(in->rows, in->nrows, measured) == NULL) {
		snprintf(why, len, "measured on %s, which this provider cannot use",
			 row_word(measured, 1));
		return 1;
	}
	return 0;
}

/* What the calibration counts for: @st, and @fmt says so in words (g->calib).  Return: 0. */
static int calib_say(struct eip93_gate *g, enum eip93_gate_calib st, const char *fmt, ...)
{
	va_list ap;

	g->calib_state = st;
	va_start(ap, fmt);
	vsnprintf(g->calib, sizeof(g->calib), fmt, ap);
	va_end(ap);
	return 0;
}

/* Is the loaded calibration for this system?  Fills g->calib when it is not. */
static int calib_current(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	const struct eip93_calib *c = &in->calib->cal;
	const struct eip93_calib_facts *f = &in->facts;
	char why[400];

	if (f->kernel == NULL || f->openssl == NULL || f->provider == NULL)
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): this system's kernel, OpenSSL or provider "
				 "version is unknown; using the defaults",
				 in->calib->path);
	if (eip93_calib_stale(c, f, why, sizeof(why)))
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): %s; using the defaults (run eip93-doctor "
				 "calibrate)",
				 in->calib->path, why);
	if (in->cfg->kalg[0] != '\0' && strcmp(in->cfg->kalg, c->composition) != 0)
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): measured for %s, kernel-algorithm = %s in "
				 "config; using the defaults",
				 in->calib->path, c->composition, in->cfg->kalg);
	if (calib_backend_mismatch(in, c->backend, why, sizeof(why)))
		return calib_say(g, EIP93_GATE_CALIB_STALE,
				 "stale: ignored (%s): %s; using the defaults", in->calib->path,
				 why);
	g->calib_state = EIP93_GATE_CALIB_CURRENT;
	return 1;
}

void eip93_gate_limits(const struct eip93_gate *g, struct eip93_route_limits lim[EIP93_EMODES])
{
	lim[EIP93_EMODE_AEAD].min_size = g->min_size;
	lim[EIP93_EMODE_AEAD].max_size = g->max_size;
	for (int i = 0; i < EIP93_CALIB_NMODES; i++) { /* AES-CTR, AES-CBC */
		lim[EIP93_EMODE_CTR + i].min_size = g->skc[i].min_size;
		lim[EIP93_EMODE_CTR + i].max_size = g->skc[i].max_size;
	}
}

size_t eip93_gate_window_text(const struct eip93_gate *g, int ctr, int cbc, char *buf, size_t len)
{
	const int bound[EIP93_CALIB_NMODES] = { ctr != 0, cbc != 0 };
	size_t n = strlen(buf);

	if (n + 1 >= len)
		return n;
	if (g->min_size > g->max_size)
		snprintf(buf + n, len - n, "; AES-GCM off (calibration: software)");
	else
		snprintf(buf + n, len - n, "; window %zu-%zu bytes (%s)", g->min_size, g->max_size,
			 g->window_calibrated ? "calibration" : "config");
	eip93_calib_windows_text(g->skc, bound, buf, len); /* AES-CTR, AES-CBC */
	return strlen(buf);
}

const char *eip93_gate_backend_name(const struct eip93_gate *g)
{
	return g->row != NULL ? g->row->ops->name : "";
}

/* One try of the gate's order: a composition on an engine row. */
struct
try {
	const struct eip93_engine_row *row;
	const char *kalg;
};

#define EIP93_MAX_TRIES (EIP93_NENGINES * EIP93_SOC_MAX_COMPS + 1)

/* Append (@row, @kalg) to @order unless it is there already. */
static void add_try(struct try *order, size_t *n, const struct eip93_engine_row *row,
		    const char *kalg)
{
	for (size_t i = 0; i < *n; i++)
		if (order[i].row == row && strcmp(order[i].kalg, kalg) == 0)
			return;
	if (*n < EIP93_MAX_TRIES) {
		order[*n].row = row;
		order[*n].kalg = kalg;
		(*n)++;
	}
}

/* The rows engine-backend allows, in the gate's order, into @out; their count. */
static size_t gate_rows(const struct eip93_gate_input *in,
			const struct eip93_engine_row *out[EIP93_NENGINES])
{
	int want = wanted_backend(in);
	size_t n = 0;

	for (size_t i = 0; i < in->nrows && n < EIP93_NENGINES; i++)
		if (want == EIP93_BACKEND_AUTO || in->rows[i].id == want)
			out[n++] = &in->rows[i];
	return n;
}

/* What the gate's tries were: per try, its row and words; per row, its errors by kind. */
struct gate_tries {
	const struct eip93_engine_row *rows[EIP93_NENGINES];
	size_t nrows;
	struct eip93_engine_tries per[EIP93_NENGINES]; /* by position in @rows */
	const struct eip93_engine_row *row[EIP93_MAX_TRIES];
	char text[EIP93_MAX_TRIES][200];
	size_t n;
};

/* The failed tries and what they mean, into the "disabled: " status. */
static void gate_kernel_off(const struct eip93_gate_input *in, struct eip93_gate *g,
			    const struct gate_tries *t)
{
	char all[sizeof(g->status)] = "", why[512];
	size_t len = 0;

	for (size_t b = 0; b < t->nrows; b++) {
		int first = 1;

		for (size_t i = 0; i < t->n && len < sizeof(all); i++) {
			if (t->row[i] != t->rows[b])
				continue;
			len += (size_t)snprintf(all + len, sizeof(all) - len, "%s%s",
						len == 0 ? "" : "; ", t->text[i]);
			first = 0;
		}
		if (first || in->cfg->kalg[0] != '\0' || len >= sizeof(all))
			continue;
		len += (size_t)snprintf(all + len, sizeof(all) - len, " - %s",
					t->rows[b]->why(&t->per[b], why, sizeof(why)));
	}
	if (in->cfg->kalg[0] != '\0')
		off(g, "%s (kernel-algorithm = %s in config)", all, in->cfg->kalg);
	else
		off(g, "%s", all);
}

/* The gate's order of tries: the calibration's first, then each row's compositions. */
static size_t gate_order(const struct eip93_gate_input *in, const struct eip93_gate *g,
			 const struct gate_tries *t, int calib_first, struct try *order)
{
	size_t n = 0;

	if (calib_first) {
		const struct eip93_engine_row *r =
			eip93_engine_row_by_id(in->rows, in->nrows, in->calib->cal.backend);

		if (r == NULL) /* the file's absent key: AF_ALG */
			r = eip93_engine_row_by_id(in->rows, in->nrows, EIP93_BACKEND_AFALG);
		if (r != NULL)
			add_try(order, &n, r, in->calib->cal.composition);
	}
	for (size_t b = 0; b < t->nrows; b++) {
		if (in->cfg->kalg[0] != '\0')
			add_try(order, &n, t->rows[b], in->cfg->kalg);
		else
			for (size_t i = 0; i < g->soc->ncomps; i++)
				if (!g->soc->comps[i].forced)
					add_try(order, &n, t->rows[b], g->soc->comps[i].kalg);
	}
	return n;
}

/* Position of @row in @t's rows. */
static size_t row_pos(const struct gate_tries *t, const struct eip93_engine_row *row)
{
	size_t b = 0;

	while (b < t->nrows && t->rows[b] != row)
		b++;
	return b;
}

/* The bound try: g->enabled, its kernel algorithm, row, status and GHASH words. */
static void gate_bound(struct eip93_gate *g, const struct try *bound)
{
	const struct eip93_soc_comp *comp = eip93_soc_comp(g->soc, bound->kalg);

	g->enabled = 1;
	g->row = bound->row;
	g->backend = bound->row->id;
	snprintf(g->kalg, sizeof(g->kalg), "%s", bound->kalg);
	snprintf(g->status, sizeof(g->status), "enabled: %s%s", bound->kalg, bound->row->via);
	snprintf(g->ghash, sizeof(g->ghash), "%s", comp != NULL ? comp->ghash : "GHASH: unknown");
}

/*
 * The kernel: bind the first composition that binds, on the rows
 * engine-backend allows (auto: the rows' order).  @calib_first: the
 * calibration's composition on its row is tried first; if it does not
 * bind, the calibration is stale.  Return: 1 when one bound (g->kalg,
 * g->row).
 */
static int gate_kernel(const struct eip93_gate_input *in, struct eip93_gate *g, int calib_first)
{
	struct try order[EIP93_MAX_TRIES];
	struct gate_tries t;
	int dead[EIP93_NENGINES] = { 0 }, used[EIP93_NENGINES] = { 0 };
	size_t n;

	if (in->cfg->kalg[0] != '\0' && eip93_soc_comp(g->soc, in->cfg->kalg) == NULL) {
		char list[400] = "";
		size_t len = 0;

		for (size_t i = 0; i < g->soc->ncomps && len < sizeof(list); i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						i ? ", " : "", g->soc->comps[i].kalg);
		off(g, "kernel-algorithm = %s in config is not one of the %s's compositions (%s)",
		    in->cfg->kalg, g->soc->short_name, list);
		return 0;
	}
	memset(&t, 0, sizeof(t));
	t.nrows = gate_rows(in, t.rows);
	if (t.nrows == 0) {
		int want = wanted_backend(in);

		off(g, "kernel: engine-backend = %s, but this build has no %s backend",
		    row_word(want, 0) != NULL ? row_word(want, 0) : "?",
		    row_word(want, 1) != NULL ? row_word(want, 1) : "such");
		return 0;
	}
	for (size_t b = 0; b < t.nrows; b++) {
		t.per[b].release = in->facts.kernel;
		t.per[b].driver_ctr = eip93_soc_engine_alg(g->soc);
		t.per[b].driver = g->soc->driver;
	}
	n = gate_order(in, g, &t, calib_first, order);
	for (size_t i = 0; i < n; i++) {
		const struct eip93_engine_row *row = order[i].row;
		const struct eip93_soc_comp *comp = eip93_soc_comp(g->soc, order[i].kalg);
		size_t b = row_pos(&t, row);
		char e[96], driver[128] = "";
		int r;

		if (b < t.nrows && dead[b])
			continue;
		/* The CTR-only and ECB compositions need libcrypto's GCM128 to compose with. */
		r = eip93_engine_kalg_composes(order[i].kalg) && in->ctr_usable != NULL
			    ? in->ctr_usable()
			    : 0;
		if (r != 0)
			r = r == -ENOMEM ? -ENOMEM : -ENOTSUP;
		else
			r = row->probe(order[i].kalg, driver, sizeof(driver));
		if (b < t.nrows) {
			if (comp != NULL)
				t.per[b].err[comp->kind] = -r;
			used[b] = 1;
		}
		if (r == 0) {
			gate_bound(g, &order[i]);
			return 1;
		}
		t.row[t.n] = row;
		row->tried(t.text[t.n++], sizeof(t.text[0]), order[i].kalg, -r, driver);
		if (b < t.nrows && row->dead != NULL)
			dead[b] |= row->dead(-r);
		if (calib_first && i == 0) {
			eip93_gate_errno_text(-r, e, sizeof(e));
			calib_say(g, EIP93_GATE_CALIB_STALE,
				  "stale: ignored (%s): its composition %s%s no longer binds (%s); "
				  "using the defaults",
				  in->calib->path, order[0].kalg, row->via, e);
		}
	}
	/* Only the rows that were tried speak. */
	n = 0;
	for (size_t b = 0; b < t.nrows; b++)
		if (used[b]) {
			t.rows[n] = t.rows[b];
			t.per[n++] = t.per[b];
		}
	t.nrows = n;
	gate_kernel_off(in, g, &t);
	return 0;
}

_Static_assert(EIP93_EMODE_CTR + EIP93_CALIB_CBC == EIP93_EMODE_CBC,
	       "gate.skc[] is EIP93_EMODE_CTR on");

/* After the bind: what a current calibration says (its window or "off"). */
static void gate_calib(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	const struct eip93_calib *c = &in->calib->cal;

	if (!c->engine && eip93_calib_modes_win(c) && !in->cfg->window_set) {
		/* AES-GCM loses at every size, AES-CTR or -CBC wins somewhere: open for them. */
		eip93_calib_mode_windows(c, in->cfg->min_size, in->cfg->max_size, g->skc);
		g->min_size = EIP93_ROUTE_MAX_SIZE_CEIL + 1; /* AES-GCM's window empty */
		g->max_size = 0;
		g->window_calibrated = 1;
		g->calib_state = EIP93_GATE_CALIB_APPLIED;
		snprintf(g->calib, sizeof(g->calib),
			 "calibrated %.40s on %.100s (%.200s): AES-GCM off (the engine does not "
			 "beat software: %.400s); AES-CTR and AES-CBC by their own windows",
			 c->date, c->kernel, in->calib->path, c->reason);
		return;
	}
	if (!c->engine) {
		g->calib_state = EIP93_GATE_CALIB_OFF;
		snprintf(g->calib, sizeof(g->calib),
			 "calibrated %.40s on %.100s (%.200s): off (the "
			 "engine does not beat software; the measured reason is in the verdict)",
			 c->date, c->kernel, in->calib->path);
		off(g, "calibration (%s, %s): the engine does not beat software: %s", c->date,
		    in->calib->path, c->reason);
		return;
	}
	if (in->cfg->window_set) {
		g->calib_state = EIP93_GATE_CALIB_CONFIG;
		snprintf(g->calib, sizeof(g->calib),
			 "calibrated %.40s on %.100s (%.200s): engine for "
			 "%zu-%zu bytes, but min-size/max-size in config take precedence",
			 c->date, c->kernel, in->calib->path, c->min_size, c->max_size);
		return;
	}
	g->min_size = c->min_size;
	g->max_size = c->max_size;
	g->window_calibrated = 1;
	eip93_calib_mode_windows(c, in->cfg->min_size, in->cfg->max_size, g->skc);
	g->calib_state = EIP93_GATE_CALIB_APPLIED;
	snprintf(g->calib, sizeof(g->calib),
		 "calibrated %.40s on %.100s (%.200s): engine for %zu-%zu bytes", c->date,
		 c->kernel, in->calib->path, c->min_size, c->max_size);
}

/* The calibration's state before any probe; 1 when it is current (gate_calib() applies). */
static int calib_state(const struct eip93_gate_input *in, struct eip93_gate *g)
{
	const struct eip93_calib_load *cl = in->calib;

	if (cl == NULL || cl->state == EIP93_CALIB_NONE)
		return calib_say(g, EIP93_GATE_CALIB_UNUSED, "not used (calibration-file = none)");
	if (cl->state == EIP93_CALIB_ABSENT)
		return calib_say(
			g, EIP93_GATE_CALIB_ABSENT,
			"uncalibrated (no %s; run eip93-doctor calibrate); using the defaults",
			cl->path);
	if (cl->state == EIP93_CALIB_INVALID)
		return calib_say(g, EIP93_GATE_CALIB_INVALID, "invalid: %s: %s", cl->path,
				 cl->error);
	return calib_current(in, g);
}

enum eip93_switch eip93_gate_env_switch(const char *v)
{
	static const char *const offs[] = { "off", "no", "0", "false", "disable", "disabled" };
	static const char *const ons[] = { "", "on", "yes", "1", "true", "auto" };

	if (v == NULL)
		return EIP93_SWITCH_UNSET;
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		if (strcasecmp(v, offs[i]) == 0)
			return EIP93_SWITCH_OFF;
	for (size_t i = 0; i < sizeof(ons) / sizeof(ons[0]); i++)
		if (strcasecmp(v, ons[i]) == 0)
			return EIP93_SWITCH_UNSET;
	return EIP93_SWITCH_INVALID;
}

void eip93_gate_decide(const struct eip93_gate_input *in, struct eip93_gate *out)
{
	int current;

	memset(out, 0, sizeof(*out));
	switch (eip93_gate_env_switch(in->env_switch)) {
	case EIP93_SWITCH_OFF:
		off(out, "switched off by EIP93_PROVIDER=%s", in->env_switch);
		return;
	case EIP93_SWITCH_INVALID:
		off(out, "EIP93_PROVIDER=\"%.64s\" is not understood (use off); treated as off",
		    in->env_switch);
		return;
	default:
		break;
	}
	if (in->cfg_error != NULL) {
		off(out, "%s", in->cfg_error);
		return;
	}
	if (!in->cfg->enable) {
		off(out, "switched off by config (enable = no)");
		return;
	}
	if (in->sw_error != NULL) {
		off(out, "%s", in->sw_error);
		return;
	}
	out->min_size = in->cfg->min_size;
	out->max_size = in->cfg->max_size;
	eip93_calib_mode_windows(NULL, in->cfg->min_size, in->cfg->max_size, out->skc);
	if (!eip93_gate_board(in, out))
		return;
	current = calib_state(in, out);
	if (out->calib_state == EIP93_GATE_CALIB_INVALID) {
		/* A corrupt file is never guessed around: the engine stays off. */
		off(out,
		    "calibration file %s is invalid (%s): engine kept off; run eip93-doctor "
		    "calibrate to rewrite it, or set calibration-file = none",
		    in->calib->path, in->calib->error);
		return;
	}
	if (!gate_kernel(in, out, current && in->cfg->kalg[0] == '\0'))
		return;
	if (out->calib_state == EIP93_GATE_CALIB_CURRENT)
		gate_calib(in, out);
	/*
	 * A row off until calibrated: only the box's calibration saying the
	 * engine wins (its window, or min-size/max-size over it), or
	 * kernel-algorithm, opens it.
	 */
	if (out->enabled && out->soc->calibrated_only &&
	    out->calib_state != EIP93_GATE_CALIB_APPLIED &&
	    out->calib_state != EIP93_GATE_CALIB_CONFIG && in->cfg->kalg[0] == '\0') {
		char bound[sizeof(out->kalg)];

		snprintf(bound, sizeof(bound), "%s", out->kalg);
		/* (the calibration's own words follow in the status: gate_texts()) */
		off(out,
		    "%s: the engine (%s; %s binds) stays off until this box's calibration says it "
		    "wins: run eip93-doctor calibrate",
		    out->soc->name, out->soc->modes, bound);
	}
}
