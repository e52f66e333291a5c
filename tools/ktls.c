// SPDX-License-Identifier: Apache-2.0
/* eip93-doctor's kernel TLS facts (tools/ktls.h): pure scanners. */
#include "ktls.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../provider/soc.h"
#include "rows.h"

/* Copy the next line of *@p (without its newline) into @buf; 0 at the end. */
static int next_line(const char **p, char *buf, size_t len)
{
	const char *s = *p, *nl;
	size_t n;

	if (s == NULL || *s == '\0')
		return 0;
	nl = strchr(s, '\n');
	n = nl != NULL ? (size_t)(nl - s) : strlen(s);
	*p = nl != NULL ? nl + 1 : s + n;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return 1;
}

/* Trim spaces at both ends, in place. */
static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void cut_comment(char *s)
{
	char *h = strchr(s, '#');

	if (h != NULL)
		*h = '\0';
}

static void record(struct ktls_setting *out, int on, unsigned int line, const char *text)
{
	out->on = on;
	out->line = line;
	snprintf(out->text, sizeof(out->text), "%s", text);
}

/*
 * The KTLS flag in a list of options separated by @sep characters: 1 set,
 * -1 cleared ("-KTLS"), 0 not mentioned (the last mention counts).
 */
static int ktls_flag(char *list, const char *sep)
{
	int v = 0;

	for (char *save = NULL, *t = strtok_r(list, sep, &save); t != NULL;
	     t = strtok_r(NULL, sep, &save)) {
		t = trim(t);
		if (strcasecmp(t, "KTLS") == 0)
			v = 1;
		else if (strcasecmp(t, "-KTLS") == 0)
			v = -1;
	}
	return v;
}

/*
 * A server's configuration text, line by line (comments cut, trimmed): @flag
 * says what a line sets (1 on, -1 off, 0 nothing); the last line that sets
 * it counts.  Returns whether it ends on.
 */
static int scan_lines(const char *text, struct ktls_setting *out, int (*flag)(char *l))
{
	char buf[1024];
	unsigned int n = 0;

	memset(out, 0, sizeof(*out));
	while (next_line(&text, buf, sizeof(buf))) {
		char *l, shown[200];
		int f;

		n++;
		cut_comment(buf);
		l = trim(buf);
		snprintf(shown, sizeof(shown), "%s", l);
		f = flag(l);
		if (f != 0)
			record(out, f > 0, n, shown);
	}
	return out->on;
}

/* openssl.cnf: "Options = ...,KTLS" in any section. */
static int cnf_flag(char *l)
{
	char *eq = strchr(l, '=');

	if (eq == NULL)
		return 0;
	*eq = '\0';
	if (strcasecmp(trim(l), "Options") != 0)
		return 0;
	return ktls_flag(trim(eq + 1), ",");
}

int ktls_scan_openssl_cnf(const char *text, struct ktls_setting *out)
{
	return scan_lines(text, out, cnf_flag);
}

/* nginx: "ssl_conf_command Options KTLS;" */
static int nginx_flag(char *l)
{
	char *rest;

	if (strncmp(l, "ssl_conf_command", 16) != 0 || !isspace((unsigned char)l[16]))
		return 0;
	rest = trim(l + 16);
	if (strncasecmp(rest, "Options", 7) != 0 || !isspace((unsigned char)rest[7]))
		return 0;
	rest[strcspn(rest, ";")] = '\0';
	return ktls_flag(rest + 7, ", \t");
}

int ktls_scan_nginx(const char *text, struct ktls_setting *out)
{
	return scan_lines(text, out, nginx_flag);
}

/* haproxy: "ktls on|off" among a bind or server line's words (the last counts). */
static int haproxy_flag(char *l)
{
	char *save = NULL, *prev = NULL;
	int v = 0;

	for (char *t = strtok_r(l, " \t", &save); t != NULL; t = strtok_r(NULL, " \t", &save)) {
		if (prev != NULL && strcmp(prev, "ktls") == 0 &&
		    (strcmp(t, "on") == 0 || strcmp(t, "off") == 0))
			v = strcmp(t, "on") == 0 ? 1 : -1;
		prev = t;
	}
	return v;
}

int ktls_scan_haproxy(const char *text, struct ktls_setting *out)
{
	return scan_lines(text, out, haproxy_flag);
}

/* The best entry named @name of type @type in /proc/crypto's text. */
static int best_of(const char *text, const char *name, const char *type, struct ktls_gcm *out)
{
	char buf[512];
	struct ktls_gcm cur;
	int in = 0, match = 0, typed = 0, internal = 0, more = 1;

	memset(out, 0, sizeof(*out));
	memset(&cur, 0, sizeof(cur));
	while (more) {
		char *l, *colon, *key, *val;

		more = next_line(&text, buf, sizeof(buf));
		l = more ? trim(buf) : buf;
		if (!more || *l == '\0') {
			/* The end of an entry. */
			if (in && match && typed && !internal && cur.driver[0] != '\0' &&
			    (!out->found || cur.priority > out->priority)) {
				*out = cur;
				out->found = 1;
			}
			in = match = typed = internal = 0;
			memset(&cur, 0, sizeof(cur));
			continue;
		}
		colon = strchr(l, ':');
		if (colon == NULL)
			continue;
		in = 1;
		*colon = '\0';
		key = trim(l);
		val = trim(colon + 1);
		if (strcmp(key, "name") == 0)
			match = strcmp(val, name) == 0;
		else if (strcmp(key, "driver") == 0)
			snprintf(cur.driver, sizeof(cur.driver), "%s", val);
		else if (strcmp(key, "module") == 0)
			snprintf(cur.module, sizeof(cur.module), "%s", val);
		else if (strcmp(key, "priority") == 0)
			cur.priority = atoi(val);
		else if (strcmp(key, "type") == 0)
			typed = strcmp(val, type) == 0;
		else if (strcmp(key, "internal") == 0)
			internal = strcmp(val, "yes") == 0;
	}
	return out->found;
}

int ktls_best_gcm(const char *text, struct ktls_gcm *out)
{
	return best_of(text, "gcm(aes)", "aead", out);
}

int ktls_best_ctr(const char *text, struct ktls_gcm *out)
{
	return best_of(text, "ctr(aes)", "skcipher", out);
}

enum ktls_where ktls_consequence(const char *driver, char *buf, size_t len)
{
	char ghash[64] = "", name[64];
	const char *comma, *core = "";
	char note[160] = "";
	int kind = -1;

	if (driver == NULL || driver[0] == '\0') {
		snprintf(buf, len,
			 "no gcm(aes) instantiated yet: the first kTLS socket (or AF_ALG bind) "
			 "builds one from the highest-priority ctr(aes) and GHASH");
		return KTLS_UNKNOWN;
	}
	if (strstr(driver, "eip93") == NULL) {
		snprintf(buf, len,
			 "kTLS's AES-GCM runs on the CPU (%s), never on the engine; the eip93 "
			 "provider sees none of those records",
			 driver);
		return KTLS_CPU;
	}
	comma = strrchr(driver, ',');
	if (comma != NULL) {
		snprintf(ghash, sizeof(ghash), "%s", comma + 1);
		ghash[strcspn(ghash, ")")] = '\0';
	}
	/* Which kind of composition that GHASH makes, as the SoC rows name them. */
	for (size_t s = 0; kind < 0 && ghash[0] != '\0' && s < eip93_nsocs; s++)
		for (size_t i = 0; kind < 0 && i < eip93_socs[s]->ncomps; i++)
			if (strcmp(tools_ghash_name(eip93_socs[s]->comps[i].kalg, name,
						    sizeof(name)),
				   ghash) == 0) {
				kind = (int)eip93_socs[s]->comps[i].kind;
				core = eip93_socs[s]->core;
			}
	if (kind == EIP93_COMP_GCM_GENERIC)
		snprintf(note, sizeof(note),
			 " (the table GHASH, ~39 cycles/byte on a %s: slower than OpenSSL's "
			 "whole software AES-GCM there)",
			 core);
	else if (kind == EIP93_COMP_GCM_NEON)
		snprintf(note, sizeof(note), " (the NEON GHASH, ~10 cycles/byte on a %s)", core);
	snprintf(buf, len,
		 "kTLS's AES-GCM goes to the engine (CTR, %s) with %s on the CPU%s; the eip93 "
		 "provider sees none of those records",
		 driver, ghash[0] ? ghash : "a GHASH", note);
	return KTLS_ENGINE;
}
