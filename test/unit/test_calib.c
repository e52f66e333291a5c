// SPDX-License-Identifier: Apache-2.0
/*
 * provider/calib.c: the calibration file.  What the calibration command
 * writes parses back to the same values; anything hand-mangled (unknown or
 * repeated keys, missing keys, bad values, bytes outside printable ASCII, truncation,
 * inconsistent verdicts) is corrupt with a message naming what is wrong
 * (never quoting the file's content); staleness compares the kernel
 * release, OpenSSL and provider versions; the file is followed only when
 * it is the administrator's (owner, mode, no symbolic link).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "../../provider/calib.h"
#include "../../provider/config.h"

static void sample(struct eip93_calib *c, int engine)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->date, "2026-12-01T10:00:00Z");
	strcpy(c->kernel, "6.1.0-57-amd64");
	strcpy(c->openssl, "3.0.17");
	strcpy(c->provider, "0.1.0");
	strcpy(c->composition, "gcm_base(ctr(aes-eip93),ghash-generic)");
	c->engine = engine;
	if (engine) {
		c->min_size = 8192;
		c->max_size = 65536;
		strcpy(c->reason, "engine beats software from 8 KiB to 64 KiB");
	} else {
		strcpy(c->reason,
		       "at no size: best 16384 B, engine 1.00 MB/s vs software 9.00 MB/s");
	}
}

static int parse_str(const char *text, struct eip93_calib *c, char *err, size_t errlen)
{
	err[0] = '\0';
	return eip93_calib_parse(text, strlen(text), c, err, errlen);
}

static int same(const struct eip93_calib *a, const struct eip93_calib *b)
{
	return strcmp(a->date, b->date) == 0 && strcmp(a->kernel, b->kernel) == 0 &&
	       strcmp(a->openssl, b->openssl) == 0 && strcmp(a->provider, b->provider) == 0 &&
	       strcmp(a->composition, b->composition) == 0 && a->engine == b->engine &&
	       a->min_size == b->min_size && a->max_size == b->max_size &&
	       strcmp(a->reason, b->reason) == 0 && memcmp(a->mode, b->mode, sizeof(a->mode)) == 0;
}

static void test_roundtrip(void)
{
	struct eip93_calib a, b;
	char buf[4096], err[256];
	int n;

	for (int engine = 0; engine <= 1; engine++) {
		sample(&a, engine);
		n = eip93_calib_format(&a, "# size key dir ...\n#  1024 128 enc 1.0\n", buf,
				       sizeof(buf));
		CHECK(n > 0);
		CHECK_EQ_INT(eip93_calib_parse(buf, (size_t)n, &b, err, sizeof(err)), 0);
		CHECK(same(&a, &b));
	}
	CHECK_EQ_INT(eip93_calib_format(&a, NULL, buf, 40), -ENOSPC);
}

/* Replace the first occurrence of @from in a formatted sample by @to and parse. */
static int mangled(int engine, const char *from, const char *to, char *err, size_t errlen)
{
	struct eip93_calib a, b;
	char buf[4096], out[4096];
	const char *at;

	sample(&a, engine);
	CHECK(eip93_calib_format(&a, NULL, buf, sizeof(buf)) > 0);
	at = strstr(buf, from);
	CHECK(at != NULL);
	if (at == NULL)
		return 0;
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(at - buf), buf, to, at + strlen(from));
	return parse_str(out, &b, err, errlen);
}

#define CORRUPT(engine, from, to, msg)                                                             \
	do {                                                                                       \
		char e_[256];                                                                      \
		CHECK_EQ_INT(mangled(engine, from, to, e_, sizeof(e_)), -EINVAL);                  \
		CHECK(strstr(e_, msg) != NULL);                                                    \
		if (strstr(e_, msg) == NULL)                                                       \
			fprintf(stderr, "  got: %s\n", e_);                                        \
	} while (0)

static void test_corrupt(void)
{
	struct eip93_calib c;
	char err[256];

	CHECK_EQ_INT(parse_str("", &c, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "empty") != NULL);
	CORRUPT(1, "format = 1", "format = 2", "invalid value of format");
	CORRUPT(1, "verdict = engine", "verdict = maybe", "invalid value of verdict");
	CORRUPT(1, "min-size = 8192", "min-size = 8k", "invalid value of min-size");
	CORRUPT(1, "min-size = 8192", "min-size = 15", "invalid value of min-size");
	CORRUPT(1, "max-size = 65536", "max-size = 65537", "invalid value of max-size");
	CORRUPT(1, "min-size = 8192", "min-size = 9000\nmin-size = 9000", "given twice");
	CORRUPT(1, "min-size = 8192\n", "", "without min-size and max-size");
	CORRUPT(1, "max-size = 65536", "max-size = 4096", "above max-size");
	CORRUPT(0, "verdict = off\n", "verdict = off\nmin-size = 4096\n",
		"verdict = off with a window");
	CORRUPT(0, "reason = ", "reason= ", "expected \"key = value\"");
	CORRUPT(1, "kernel-release = 6.1.0-57-amd64\n", "", "kernel-release missing");
	CORRUPT(1, "composition = gcm_base(ctr(aes-eip93),ghash-generic)", "composition = gcm(aes)",
		"invalid value of composition");
	CORRUPT(1, "date = ", "colour = blue\ndate = ", "unknown key");
	CORRUPT(1, "date = 2026",
		"date = \x01"
		"2026",
		"invalid value of date (a byte outside printable ASCII)");
	CORRUPT(1, "provider-version = 0.1.0",
		"provider-version = ", "invalid value of provider-version");
	/* Truncated in the middle of a line. */
	{
		struct eip93_calib a;
		char buf[4096];
		int n;

		sample(&a, 1);
		n = eip93_calib_format(&a, NULL, buf, sizeof(buf));
		CHECK_EQ_INT(eip93_calib_parse(buf, (size_t)n - 3, &c, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "truncated") != NULL);
		/* Cut at a line end: a required key is missing. */
		CHECK_EQ_INT(eip93_calib_parse(buf, (size_t)(strstr(buf, "verdict") - buf), &c, err,
					       sizeof(err)),
			     -EINVAL);
		CHECK(strstr(err, "verdict missing") != NULL);
	}
	/* A 600-byte line. */
	{
		char big[1024];

		memset(big, 'x', sizeof(big));
		big[6] = ' ';
		big[7] = '=';
		big[8] = ' ';
		big[700] = '\n';
		CHECK_EQ_INT(eip93_calib_parse(big, 701, &c, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "longer than") != NULL);
	}
}

static void test_stale(void)
{
	struct eip93_calib c;
	struct eip93_calib_facts f = { "6.1.0-57-amd64", "3.0.17", "0.1.0" };
	char why[256];

	sample(&c, 1);
	CHECK_EQ_INT(eip93_calib_stale(&c, &f, why, sizeof(why)), 0);
	f.kernel = "6.12.57-amd64";
	CHECK_EQ_INT(eip93_calib_stale(&c, &f, why, sizeof(why)), 1);
	CHECK(strstr(why, "kernel 6.1.0-57-amd64, this is 6.12.57-amd64") != NULL);
	f.kernel = "6.1.0-57-amd64";
	f.openssl = "3.5.7";
	CHECK_EQ_INT(eip93_calib_stale(&c, &f, why, sizeof(why)), 1);
	CHECK(strstr(why, "OpenSSL 3.0.17, this is 3.5.7") != NULL);
	f.openssl = "3.0.17";
	f.provider = "0.2.0";
	CHECK_EQ_INT(eip93_calib_stale(&c, &f, why, sizeof(why)), 1);
	CHECK(strstr(why, "eip93 0.1.0, this is 0.2.0") != NULL);
}

static void test_load(void)
{
	struct eip93_calib_load l;
	struct eip93_calib a;
	char path[] = "/tmp/eip93-calib-XXXXXX", buf[4096];
	int fd = mkstemp(path), n;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	sample(&a, 1);
	n = eip93_calib_format(&a, NULL, buf, sizeof(buf));
	CHECK(write(fd, buf, (size_t)n) == n);
	close(fd);
	eip93_calib_load(path, &l);
	CHECK_EQ_INT(l.state, EIP93_CALIB_LOADED);
	CHECK_EQ_INT(l.cal.min_size, 8192);
	fd = open(path, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, "junk\n", 5) == 5);
	close(fd);
	eip93_calib_load(path, &l);
	CHECK_EQ_INT(l.state, EIP93_CALIB_INVALID);
	CHECK(strstr(l.error, "corrupt: line 1") != NULL);
	unlink(path);
	eip93_calib_load(path, &l);
	CHECK_EQ_INT(l.state, EIP93_CALIB_ABSENT);
	eip93_calib_load("", &l);
	CHECK_EQ_INT(l.state, EIP93_CALIB_NONE);
	eip93_calib_load("/tmp", &l); /* a directory: read() fails */
	CHECK_EQ_INT(l.state, EIP93_CALIB_INVALID);
}

/*
 * docs/contract.md "Processes and secrets": what a parse error says quotes at most a key name, never the
 * file's content (a calibration-file pointed at a root-only file would
 * otherwise show its bytes in the provider's status strings).
 */
static void test_no_content(void)
{
	static const char *const mangles[][2] = {
		{ "date = ", "S3CRET = 1\ndate = " },
		{ "date = ", "S3CRET\ndate = " },
		{ "verdict = engine", "verdict = S3CRET" },
		{ "min-size = 8192", "min-size = S3CRET" },
		{ "min-size = 8192", "min-size = 8192S3CRET" },
		{ "composition = gcm_base(ctr(aes-eip93),ghash-generic)", "composition = S3CRET" },
		{ "format = 1", "format = S3CRET" },
		{ "date = 2026", "date = S3CRET\x01" },
		{ "max-size = 65536", "max-size = 4097" },
	};
	char err[256], buf[4096];
	struct eip93_calib c;

	for (size_t i = 0; i < sizeof(mangles) / sizeof(mangles[0]); i++) {
		err[0] = '\0';
		CHECK_EQ_INT(mangled(1, mangles[i][0], mangles[i][1], err, sizeof(err)), -EINVAL);
		CHECK(err[0] != '\0' && strstr(err, "S3CRET") == NULL &&
		      strstr(err, "4097") == NULL && strstr(err, "8192") == NULL);
		if (strstr(err, "S3CRET") != NULL || strstr(err, "4097") != NULL)
			fprintf(stderr, "  echoed: %s\n", err);
	}
	/* A long line of content. */
	memset(buf, 'S', 700);
	buf[1] = '3';
	buf[6] = ' ';
	buf[7] = '=';
	buf[8] = ' ';
	buf[700] = '\n';
	CHECK_EQ_INT(eip93_calib_parse(buf, 701, &c, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "S3CRET") == NULL && strstr(err, "SSS") == NULL);
}

/* Is every byte of @s printable ASCII (0x20-0x7e)? */
static int all_printable(const char *s)
{
	for (; *s != '\0'; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e)
			return 0;
	return 1;
}

/*
 * Text values are printable ASCII only: a byte from 0x80 to 0xff (0x9b is
 * CSI on 8-bit terminals, 0xff is never UTF-8), a control byte or DEL in a
 * value makes the file corrupt, the key named, the value not quoted, the
 * error printable ASCII; the same bytes in a key or a comment too.
 */
static void test_printable(void)
{
	/* The first is the review's "6.1\x9b31mX\xff" (octal: hex would swallow the 31). */
	static const char *const values[] = {
		"6.1\23331mX\377", "6.1\x80", "\xc3\xa9", "6.1\x7f", "6.1\x1b[31m", "6.1\t0",
	};
	static const struct {
		const char *from, *to, *msg;
	} elsewhere[] = {
		{ "date = ", "dat\xe9 = x\ndate = ", "line 4: a byte outside printable ASCII" },
		{ "date = ", "\x9b\ndate = ", "line 4: a byte outside printable ASCII" },
		{ "date = ", "# m\xc3\xa9sure\ndate = ", "line 4: a byte outside printable ASCII" },
		{ "verdict = engine", "verdict = engine\xff", "invalid value of verdict" },
		{ "min-size = 8192", "min-size = 8192\x9b", "invalid value of min-size" },
	};
	char err[256], text[4096], path[] = "/tmp/eip93-calib-high-XXXXXX";
	struct eip93_calib_load l;
	struct eip93_calib a;
	int fd;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char to[64];

		snprintf(to, sizeof(to), "kernel-release = %s\n", values[i]);
		err[0] = '\0';
		CHECK_EQ_INT(mangled(1, "kernel-release = 6.1.0-57-amd64\n", to, err, sizeof(err)),
			     -EINVAL);
		CHECK(strstr(err, "line 5: invalid value of kernel-release (a byte outside "
				  "printable ASCII)") != NULL);
		CHECK(all_printable(err) && strstr(err, "6.1") == NULL);
		if (strstr(err, "invalid value of kernel-release") == NULL)
			fprintf(stderr, "  value %zu: got \"%s\"\n", i, err);
	}
	for (size_t i = 0; i < sizeof(elsewhere) / sizeof(elsewhere[0]); i++) {
		err[0] = '\0';
		CHECK_EQ_INT(mangled(1, elsewhere[i].from, elsewhere[i].to, err, sizeof(err)),
			     -EINVAL);
		CHECK(strstr(err, elsewhere[i].msg) != NULL && all_printable(err));
		if (strstr(err, elsewhere[i].msg) == NULL)
			fprintf(stderr, "  %s: got \"%s\"\n", elsewhere[i].msg, err);
	}
	/* Loaded from a file: invalid, and the error the status shows is printable ASCII. */
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	sample(&a, 1);
	strcpy(a.kernel, values[0]);
	CHECK(eip93_calib_format(&a, NULL, text, sizeof(text)) > 0);
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	eip93_calib_load(path, &l);
	CHECK_EQ_INT(l.state, EIP93_CALIB_INVALID);
	CHECK(strstr(l.error, "corrupt: line 5: invalid value of kernel-release") != NULL);
	CHECK(all_printable(l.error));
	if (!all_printable(l.error) || l.state != EIP93_CALIB_INVALID)
		fprintf(stderr, "  loaded: state %d, error \"%s\"\n", (int)l.state, l.error);
	unlink(path);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	CHECK(fchmod(fd, mode) == 0);
	close(fd);
}

/* Load @path; the state, and @why must be in the error when it is invalid. */
static void load_is(const char *path, enum eip93_calib_state want, const char *why)
{
	struct eip93_calib_load l;

	eip93_calib_load(path, &l);
	CHECK_EQ_INT(l.state, want);
	if (why != NULL) {
		CHECK(strstr(l.error, why) != NULL);
		if (strstr(l.error, why) == NULL)
			fprintf(stderr, "  %s: got \"%s\", want \"%s\"\n", path, l.error, why);
	}
}

/*
 * docs/contract.md "Processes and secrets": the file is followed only when it is a regular file owned by
 * root or the effective user and writable by nobody else, never through a
 * symbolic link; anything else is refused with the reason named.
 */
static void test_load_trust(void)
{
	char dir[] = "/tmp/eip93-calib-trust-XXXXXX", f[128], ln[128], dn[128], fifo[128];
	char buf[4096];
	struct eip93_calib a;
	pid_t pid;
	int st;

	if (mkdtemp(dir) == NULL || chmod(dir, 0755) != 0) {
		CHECK(0);
		return;
	}
	snprintf(f, sizeof(f), "%s/calibration", dir);
	snprintf(ln, sizeof(ln), "%s/link", dir);
	snprintf(dn, sizeof(dn), "%s/dangling", dir);
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	sample(&a, 1);
	CHECK(eip93_calib_format(&a, NULL, buf, sizeof(buf)) > 0);

	write_file(f, buf, 0644);
	load_is(f, EIP93_CALIB_LOADED, NULL);
	write_file(f, buf, 0600);
	load_is(f, EIP93_CALIB_LOADED, NULL);
	write_file(f, buf, 0664);
	load_is(f, EIP93_CALIB_INVALID, "refused: writable by its group or others (mode 0664)");
	write_file(f, buf, 0646);
	load_is(f, EIP93_CALIB_INVALID, "refused: writable by its group or others (mode 0646)");

	write_file(f, buf, 0644);
	CHECK(symlink(f, ln) == 0);
	load_is(ln, EIP93_CALIB_INVALID, "refused: a symbolic link (not followed)");
	CHECK(symlink("/nonexistent/eip93", dn) == 0);
	load_is(dn, EIP93_CALIB_INVALID, "refused: a symbolic link (not followed)");
	CHECK(mkfifo(fifo, 0644) == 0);
	load_is(fifo, EIP93_CALIB_INVALID, "refused: not a regular file"); /* and no hang */
	load_is(dir, EIP93_CALIB_INVALID, "refused: not a regular file");

	/* Owned by another user: refused, unless that user is the one loading it. */
	if (chown(f, 12345, 12345) == 0) {
		if (geteuid() != 12345)
			load_is(f, EIP93_CALIB_INVALID,
				"refused: owned by uid 12345, not by root or uid");
		pid = fork();
		if (pid == 0) {
			struct eip93_calib_load l;

			if (setgid(12345) != 0 || setuid(12345) != 0)
				_exit(2);
			eip93_calib_load(f, &l);
			_exit(l.state == EIP93_CALIB_LOADED ? 0 : 1);
		}
		CHECK(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 0);
	} else {
		/* Not root: the files here are the effective user's own. */
		printf("test_calib: chown needs root: the foreign-owner checks did not run\n");
	}
	unlink(f);
	unlink(ln);
	unlink(dn);
	unlink(fifo);
	rmdir(dir);
}

/* The backend the winner was measured on: optional, absent meaning AF_ALG. */
static void test_backend(void)
{
	struct eip93_calib a, b;
	char buf[4096], text[4200], err[256];
	char *at;

	/* Without it (every older file): AF_ALG. */
	sample(&a, 1);
	CHECK(eip93_calib_format(&a, NULL, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "backend") == NULL);
	CHECK_EQ_INT(parse_str(buf, &b, err, sizeof(err)), 0);
	CHECK_EQ_INT(b.backend, EIP93_BACKEND_AFALG);
	/* An AF_ALG winner is written without it, so older providers still read the file. */
	a.backend = EIP93_BACKEND_AFALG;
	CHECK(eip93_calib_format(&a, NULL, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "backend") == NULL);
	/* A /dev/crypto winner names it, and reads back. */
	a.backend = EIP93_BACKEND_CRYPTODEV;
	CHECK(eip93_calib_format(&a, "# speed 16384 aes-128-gcm:x@cryptodev 1.0 2.0\n", buf,
				 sizeof(buf)) > 0);
	CHECK(strstr(buf, "\nbackend = cryptodev\n") != NULL);
	CHECK_EQ_INT(parse_str(buf, &b, err, sizeof(err)), 0);
	CHECK_EQ_INT(b.backend, EIP93_BACKEND_CRYPTODEV);
	CHECK(same(&a, &b));
	/* Spelled out as af_alg: accepted; anything else, or twice: corrupt, the key named. */
	at = strstr(buf, "backend = cryptodev\n");
	CHECK(at != NULL);
	if (at == NULL)
		return;
	snprintf(text, sizeof(text), "%.*sbackend = af_alg\n%s", (int)(at - buf), buf,
		 at + strlen("backend = cryptodev\n"));
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), 0);
	CHECK_EQ_INT(b.backend, EIP93_BACKEND_AFALG);
	snprintf(text, sizeof(text), "%.*sbackend = devcrypto\n%s", (int)(at - buf), buf,
		 at + strlen("backend = cryptodev\n"));
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "invalid value of backend") != NULL);
	CHECK(strstr(err, "devcrypto") == NULL);
	snprintf(text, sizeof(text), "%sbackend = cryptodev\n", buf);
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "backend given twice") != NULL);
}

/* Replace @from in @buf by @to into @text. */
static void subst(const char *buf, const char *from, const char *to, char *text, size_t len)
{
	const char *at = strstr(buf, from);

	CHECK(at != NULL);
	if (at == NULL) {
		snprintf(text, len, "%s", buf);
		return;
	}
	snprintf(text, len, "%.*s%s%s", (int)(at - buf), buf, to, at + strlen(from));
}

/*
 * The per-mode windows: "#+" lines, comments to the providers before them;
 * a file without them (older) leaves AES-CTR/CBC on the config's window;
 * "off" puts that mode in software; bad values are corrupt, the key named.
 */
static void test_modes(void)
{
	static const char *const bad[] = {
		"#+ cbc-window = 4096",	  "#+ cbc-window = -4096",	"#+ cbc-window = 8192-4096",
		"#+ cbc-window = 8-4096", "#+ cbc-window = 4096-65537", "#+ cbc-window = 4096-x",
		"#+ cbc-window = Off",	  "#+ cbc-window = 4096-8192 "
	};
	struct eip93_calib a, b;
	struct eip93_mode_window w[EIP93_CALIB_NMODES];
	char buf[4096], text[4300], err[256];
	const int bound[EIP93_CALIB_NMODES] = { 1, 1 };

	/* An older file: no lines, both modes on the config's window. */
	sample(&a, 1);
	CHECK(eip93_calib_format(&a, NULL, buf, sizeof(buf)) > 0);
	CHECK(strstr(buf, "window") == NULL);
	CHECK_EQ_INT(parse_str(buf, &b, err, sizeof(err)), 0);
	CHECK(!b.mode[EIP93_CALIB_CTR].set && !b.mode[EIP93_CALIB_CBC].set);
	eip93_calib_mode_windows(&b, 4096, 32768, w);
	CHECK(w[0].from == EIP93_WINDOW_CONFIG && w[0].min_size == 4096 && w[0].max_size == 32768);
	CHECK(w[1].from == EIP93_WINDOW_CONFIG && w[1].min_size == 4096 && w[1].max_size == 32768);
	/* A new file: AES-CTR calibrated, AES-CBC off; written as "#+" lines, read back. */
	a.mode[EIP93_CALIB_CTR] = (struct eip93_calib_window){ 1, 1, 2048, 65536 };
	a.mode[EIP93_CALIB_CBC] = (struct eip93_calib_window){ 1, 0, 0, 0 };
	CHECK(eip93_calib_format(&a, "# speed 16384 aes-128-cbc:software 1.0 2.0\n", buf,
				 sizeof(buf)) > 0);
	CHECK(strstr(buf, "\n#+ ctr-window = 2048-65536\n#+ cbc-window = off\n") != NULL);
	CHECK_EQ_INT(parse_str(buf, &b, err, sizeof(err)), 0);
	CHECK(same(&a, &b));
	CHECK(b.mode[0].set && b.mode[0].engine && b.mode[0].min_size == 2048 &&
	      b.mode[0].max_size == 65536);
	CHECK(b.mode[1].set && !b.mode[1].engine);
	eip93_calib_mode_windows(&b, 4096, 32768, w);
	CHECK(w[0].from == EIP93_WINDOW_CALIB && w[0].min_size == 2048 && w[0].max_size == 65536);
	/* off: no payload fits, the smallest or the largest. */
	CHECK(w[1].from == EIP93_WINDOW_OFF && w[1].min_size > 65536 && w[1].max_size < 16);
	text[0] = '\0';
	eip93_calib_windows_text(w, bound, text, sizeof(text));
	CHECK(strcmp(text, "; AES-CTR window 2048-65536 bytes (calibration); AES-CBC off "
			   "(calibration: software)") == 0);
	/* A later version's "#+" key, and "#+" without a key: comments here. */
	snprintf(text, sizeof(text), "%s#+ gcm-siv-window = 16-64\n#+ a note\n", buf);
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), 0);
	/* As a plain key: unknown (an older provider would call it corrupt too). */
	subst(buf, "#+ cbc-window", "cbc-window", text, sizeof(text));
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "unknown key") != NULL);
	/* Twice: corrupt. */
	snprintf(text, sizeof(text), "%s#+ ctr-window = off\n", buf);
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), -EINVAL);
	CHECK(strstr(err, "ctr-window given twice") != NULL);
	/* Bad values: corrupt, the key and what it needs named, the value not quoted. */
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		subst(buf, "#+ cbc-window = off", bad[i], text, sizeof(text));
		CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), -EINVAL);
		CHECK(strstr(err, "invalid value of cbc-window (expected off or MIN-MAX") != NULL);
		CHECK(strstr(err, "4096") == NULL && strstr(err, "8192") == NULL);
		if (strstr(err, "invalid value of cbc-window") == NULL)
			fprintf(stderr, "  %s: %s\n", bad[i], err);
	}
	/* A mode's "off" does not touch the other mode or AES-GCM's window. */
	subst(buf, "#+ ctr-window = 2048-65536", "#+ ctr-window = off", text, sizeof(text));
	CHECK_EQ_INT(parse_str(text, &b, err, sizeof(err)), 0);
	CHECK(b.engine && b.min_size == 8192 && b.max_size == 65536 && !b.mode[0].engine);
}

int main(void)
{
	test_modes();
	test_roundtrip();
	test_backend();
	test_corrupt();
	test_stale();
	test_load();
	test_no_content();
	test_printable();
	test_load_trust();
	return check_done("test_calib");
}
