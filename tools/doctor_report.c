// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-doctor's sections [7] kernel TLS, [8] recommendation and [9]
 * traffic shapes (tools/doctor_report.h): reads the files, asks
 * tools/ktls.c and tools/advice.c, prints text or JSON.
 */
#include "doctor_report.h"

#include <errno.h>
#include <glob.h>
#include <linux/if_alg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/conf.h>
#include <openssl/crypto.h>

#include "../detect/detect.h"
#include "../provider/calib.h"
#include "../provider/config.h"
#include "advice.h"
#include "ktls.h"
#include "rows.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#define MAX_READ (1 << 20)

struct report {
	/* [7] */
	struct ktls_setting cnf, nginx, haproxy;
	char cnf_path[512], nginx_path[512], haproxy_path[512];
	const char *tls_module; /* loaded | built in | module (loads on first use) | absent */
	struct ktls_gcm gcm, ctr;
	int instantiated; /* the doctor bound gcm(aes) through AF_ALG to see it */
	enum ktls_where where;
	char consequence[512];
	/* [8] */
	struct adv_calib cal;
	struct eip93_calib file;
	char comp_path[EIP93_CALIB_TEXT + 16]; /* the winner's speed-line path */
	char cbc_path[96];		       /* AES-CBC's on the winner's backend */
	struct adv_speeds speeds;
	char cal_path[256];
	struct adv_reco reco;
	/* [9] */
	size_t wmin, wmax;
	struct adv_shape shapes[ADV_NSHAPES];
};

/* A whole (small) file, NUL-terminated; NULL when unreadable. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (f == NULL)
		return NULL;
	buf = malloc(MAX_READ + 1);
	if (buf == NULL) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, MAX_READ, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* The first file matching one of @pats where @scan finds kTLS switched on. */
static void scan_files(const char *const *pats, int (*scan)(const char *, struct ktls_setting *),
		       struct ktls_setting *out, char *where, size_t wlen)
{
	memset(out, 0, sizeof(*out));
	where[0] = '\0';
	for (int i = 0; pats[i] != NULL && !out->on; i++) {
		glob_t g;

		if (glob(pats[i], 0, NULL, &g) != 0)
			continue;
		for (size_t j = 0; j < g.gl_pathc && !out->on; j++) {
			char *t = slurp(g.gl_pathv[j]);

			if (t != NULL && scan(t, out))
				snprintf(where, wlen, "%s", g.gl_pathv[j]);
			free(t);
		}
		globfree(&g);
	}
}

static const char *tls_module(void)
{
	char rel[128], path[300];
	struct stat st;
	char *mods = slurp("/proc/modules");
	int loaded =
		mods != NULL && (strncmp(mods, "tls ", 4) == 0 || strstr(mods, "\ntls ") != NULL);

	free(mods);
	if (loaded)
		return "loaded";
	if (stat("/sys/module/tls", &st) == 0)
		return "built in";
	if (eip93_kernel_release(rel, sizeof(rel)) == 0) {
		static const char *const ext[] = { "", ".xz", ".zst", ".gz" };

		for (int i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "/lib/modules/%s/kernel/net/tls/tls.ko%s", rel,
				 ext[i]);
			if (stat(path, &st) == 0)
				return "module, not loaded (a kTLS socket loads it)";
		}
	}
	return "absent";
}

/* Bind gcm(aes) through AF_ALG so that the kernel instantiates it; 0 or -errno. */
static int instantiate_gcm(void)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), r = 0;

	if (fd < 0)
		return -errno;
	snprintf((char *)sa.salg_type, sizeof(sa.salg_type), "aead");
	snprintf((char *)sa.salg_name, sizeof(sa.salg_name), "gcm(aes)");
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		r = -errno;
	close(fd);
	return r;
}

static void gather_ktls(struct report *r)
{
	static const char *const nginx[] = { "/etc/nginx/nginx.conf", "/etc/nginx/conf.d/*.conf",
					     "/etc/nginx/sites-enabled/*", NULL };
	static const char *const haproxy[] = { "/etc/haproxy/haproxy.cfg", NULL };
	const char *env = getenv("OPENSSL_CONF");
	char *cnf = env != NULL ? NULL : CONF_get1_default_config_file(), *t;

	snprintf(r->cnf_path, sizeof(r->cnf_path), "%s", env != NULL ? env : cnf ? cnf : "?");
	OPENSSL_free(cnf);
	t = slurp(r->cnf_path);
	if (t != NULL)
		ktls_scan_openssl_cnf(t, &r->cnf);
	free(t);
	scan_files(nginx, ktls_scan_nginx, &r->nginx, r->nginx_path, sizeof(r->nginx_path));
	scan_files(haproxy, ktls_scan_haproxy, &r->haproxy, r->haproxy_path,
		   sizeof(r->haproxy_path));
	r->tls_module = tls_module();
	t = slurp("/proc/crypto");
	if (t != NULL && !ktls_best_gcm(t, &r->gcm) && instantiate_gcm() == 0) {
		free(t);
		t = slurp("/proc/crypto");
		r->instantiated = t != NULL && ktls_best_gcm(t, &r->gcm);
	}
	if (t != NULL)
		ktls_best_ctr(t, &r->ctr);
	free(t);
	r->where = ktls_consequence(r->gcm.found ? r->gcm.driver : "", r->consequence,
				    sizeof(r->consequence));
}

/* The calibration's path, as the provider's eip93-calibration text names it. */
static void calib_path(const char *text, char *out, size_t len)
{
	const char *p = strchr(text, '/');
	size_t n;

	if (p == NULL) {
		snprintf(out, len, "%s", EIP93_CALIBRATION_FILE);
		return;
	}
	n = strcspn(p, ");: ");
	snprintf(out, len, "%.*s", (int)n, p);
}

/* The AES-CBC window the provider routes by, as its eip93-status says it. */
static void gather_cbc(struct report *r, const char *status)
{
	const char *cb = strstr(status, "; AES-CBC ");
	const char *kalg = tools_soc()->mode[EIP93_MODE_CBC];

	tools_comp_path(r->cbc_path, sizeof(r->cbc_path), kalg != NULL ? kalg : "",
			tools_row(r->file.backend));
	r->cal.cbc.path = r->cbc_path;
	r->cal.cbc.known = cb != NULL;
	r->cal.cbc.engine = cb != NULL && sscanf(cb, "; AES-CBC window %zu-%zu",
						 &r->cal.cbc.min_size, &r->cal.cbc.max_size) == 2;
}

static void gather_advice(struct report *r, const struct doctor_state *st)
{
	char *t = NULL, err[256];
	int current = strncmp(st->calib, "calibrated ", 11) == 0;

	memset(&r->cal, 0, sizeof(r->cal));
	calib_path(st->calib, r->cal_path, sizeof(r->cal_path));
	if (current)
		t = slurp(r->cal_path);
	if (t != NULL && eip93_calib_parse(t, strlen(t), &r->file, err, sizeof(err)) == 0) {
		r->cal.present = 1;
		r->cal.engine = r->file.engine;
		/* A later row's winner's speeds are under "composition@cryptodev". */
		tools_comp_path(r->comp_path, sizeof(r->comp_path), r->file.composition,
				tools_row(r->file.backend));
		r->cal.composition = r->comp_path;
		r->cal.min_size = r->file.min_size;
		r->cal.max_size = r->file.max_size;
		adv_parse_speeds(t, &r->speeds);
		gather_cbc(r, st->status);
	}
	free(t);
	adv_recommend(r->cal.present ? &r->speeds : NULL, &r->cal,
		      st->calib[0] ? st->calib : "the provider did not load", &r->reco);
	if (sscanf(st->window, "%zu-%zu", &r->wmin, &r->wmax) != 2)
		r->wmin = r->wmax = 0;
	adv_shapes(r->wmin, r->wmax, r->cal.present ? &r->speeds : NULL, &r->cal, r->shapes);
}

static void fact(const char *name, const char *text)
{
	printf("  %-22s %s\n", name, text);
}

static void setting_line(const char *what, const struct ktls_setting *s, const char *path)
{
	char buf[900];

	if (s->on)
		snprintf(buf, sizeof(buf), "KTLS on: %s line %u: %s", path, s->line, s->text);
	else
		snprintf(buf, sizeof(buf), "no KTLS%s%s", path[0] ? " in " : "", path);
	fact(what, buf);
}

static void print_text(const struct report *r)
{
	char buf[700];
	int on = r->cnf.on || r->nginx.on || r->haproxy.on;

	printf("\n[7] kernel TLS (kTLS bypasses every OpenSSL provider)\n");
	setting_line("openssl.cnf", &r->cnf, r->cnf_path);
	setting_line("nginx", &r->nginx, r->nginx.on ? r->nginx_path : "");
	setting_line("haproxy", &r->haproxy, r->haproxy.on ? r->haproxy_path : "");
	fact("tls module", r->tls_module);
	if (r->gcm.found)
		snprintf(buf, sizeof(buf), "%s (priority %d, module %s)%s", r->gcm.driver,
			 r->gcm.priority, r->gcm.module,
			 r->instantiated ? "; instantiated by this doctor through AF_ALG" : "");
	else
		snprintf(buf, sizeof(buf), "not instantiated (/proc/crypto)%s%s",
			 r->ctr.found ? "; best ctr(aes): " : "",
			 r->ctr.found ? r->ctr.driver : "");
	fact("kTLS gcm(aes)", buf);
	printf("  kTLS: %s: %s\n", on ? "on" : "off", r->consequence);
	if (on && r->where == KTLS_ENGINE)
		printf("  -> kTLS records bypass eip93's calibration and window: every record goes "
		       "to the kernel's hybrid; compare with eip93 (docs/servers.md)\n");
	else if (on && r->where == KTLS_CPU)
		printf("  -> with kTLS on, this kernel encrypts on the CPU: to use the engine, "
		       "switch kTLS off for AES-GCM traffic (docs/servers.md)\n");

	printf("\n[8] recommendation (from this box's calibration only)\n");
	if (!r->reco.measured) {
		printf("  %s\n", r->reco.text);
	} else {
		fact("calibration", r->cal_path);
		printf("  peer offering both AEADs: %s\n", r->reco.both);
		printf("  AES-GCM-only peer:        %s\n", r->reco.aes_only);
		printf("  TLS 1.2 suites:           %s\n", r->reco.tls12);
		if (r->reco.tls12_measured)
			printf("  TLS 1.2 peer without AEAD: %s\n", r->reco.cbc_only);
		if (r->reco.chacha_wins)
			for (int i = 0; i < 4; i++) {
				const char *s = adv_server_settings(i);

				printf("  %s:\n", adv_server_names[i]);
				while (*s != '\0') {
					size_t n = strcspn(s, "\n");

					printf("      %.*s\n", (int)n, s);
					s += n + (s[n] == '\n');
				}
			}
	}

	if (r->wmax)
		printf("\n[9] traffic shapes against the engine window (%zu-%zu bytes)\n", r->wmin,
		       r->wmax);
	else
		printf("\n[9] traffic shapes against the engine window (none)\n");
	for (int i = 0; i < ADV_NSHAPES; i++)
		printf("  %-6zu %s: %s\n", r->shapes[i].bytes, r->shapes[i].name,
		       r->shapes[i].advice);
}

/* A JSON string. */
static void js(const char *s)
{
	putchar('"');
	for (; s != NULL && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			printf("\\n");
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void jkv(const char *k, const char *v, int comma)
{
	js(k);
	putchar(':');
	js(v);
	if (comma)
		putchar(',');
}

static void print_json(const struct report *r, const struct doctor_state *st)
{
	printf("{");
	jkv("version", st->version, 1);
	printf("\"loaded\":%s,\"enabled\":%s,", st->loaded ? "true" : "false",
	       st->enabled ? "true" : "false");
	jkv("verdict", st->gate, 1);
	jkv("status", st->status, 1);
	jkv("window", st->window, 1);
	jkv("calibration", st->calib, 1);
	printf("\"ktls\":{\"on\":%s,",
	       r->cnf.on || r->nginx.on || r->haproxy.on ? "true" : "false");
	printf("\"openssl_cnf\":{\"path\":");
	js(r->cnf_path);
	printf(",\"on\":%s,\"line\":", r->cnf.on ? "true" : "false");
	js(r->cnf.text);
	printf("},\"nginx\":%s,\"haproxy\":%s,", r->nginx.on ? "true" : "false",
	       r->haproxy.on ? "true" : "false");
	jkv("tls_module", r->tls_module, 1);
	jkv("gcm_aes_driver", r->gcm.found ? r->gcm.driver : "", 1);
	printf("\"gcm_aes_priority\":%d,\"instantiated_by_doctor\":%s,", r->gcm.priority,
	       r->instantiated ? "true" : "false");
	jkv("where",
	    r->where == KTLS_ENGINE ? "engine"
	    : r->where == KTLS_CPU  ? "cpu"
				    : "unknown",
	    1);
	jkv("consequence", r->consequence, 0);
	printf("},\"recommendation\":{\"measured\":%s,", r->reco.measured ? "true" : "false");
	if (!r->reco.measured) {
		jkv("text", r->reco.text, 0);
	} else {
		printf("\"record_bytes\":%d,\"chacha20_poly1305\":{\"mbs\":%.3f,\"cpu_ns_per_"
		       "byte\":"
		       "%.3f},",
		       ADV_TLS_RECORD, r->reco.chacha_mbs, r->reco.chacha_cpu);
		for (int b = 0; b < 2; b++)
			printf("\"aes_%d_gcm\":{\"path\":\"%s\",\"mbs\":%.3f,\"cpu_ns_per_byte\":%."
			       "3f},",
			       r->reco.aes[b].bits, r->reco.aes[b].engine ? "engine" : "software",
			       r->reco.aes[b].mbs, r->reco.aes[b].cpu);
		jkv("composition", r->cal.engine ? r->cal.composition : "", 1);
		jkv("both_peer", r->reco.chacha_wins ? "chacha20-poly1305" : "aes-gcm", 1);
		jkv("both_text", r->reco.both, 1);
		jkv("aes_only_text", r->reco.aes_only, 1);
		if (r->reco.tls12_measured)
			printf("\"aes_128_cbc_hmac_sha256\":{\"path\":\"%s\",\"mbs\":%.3f,"
			       "\"cpu_ns_per_byte\":%.3f,\"preferred\":%s},",
			       r->reco.cbc_engine ? "engine" : "software", r->reco.cbc_mbs,
			       r->reco.cbc_cpu, r->reco.cbc_wins ? "true" : "false");
		jkv("tls12_text", r->reco.tls12, 1);
		jkv("tls12_cbc_only_text", r->reco.cbc_only, 1);
		printf("\"settings\":{");
		for (int i = 0; r->reco.chacha_wins && i < 4; i++)
			jkv(adv_server_names[i], adv_server_settings(i), i < 3);
		printf("}");
	}
	printf("},\"shapes\":[");
	for (int i = 0; i < ADV_NSHAPES; i++) {
		printf("%s{\"bytes\":%zu,", i ? "," : "", r->shapes[i].bytes);
		jkv("name", r->shapes[i].name, 1);
		printf("\"inside\":%s,\"suggest_max_size\":%zu,",
		       r->shapes[i].inside ? "true" : "false", r->shapes[i].suggest_max);
		jkv("advice", r->shapes[i].advice, 0);
		printf("}");
	}
	printf("]}\n");
}

void doctor_report(const struct doctor_state *st, int json)
{
	static struct report r;

	memset(&r, 0, sizeof(r));
	gather_ktls(&r);
	gather_advice(&r, st);
	if (json)
		print_json(&r, st);
	else
		print_text(&r);
}
