// SPDX-License-Identifier: Apache-2.0
/* `eip93-doctor calibrate`: the table, the calibration file, the plot. */
#include "calib_report.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../provider/config.h"
#include "advice.h"

/* The directory part of @path (dirname() may modify and return its argument). */
static void dir_of(const char *path, char *dir, size_t len)
{
	char copy[EIP93_CFG_PATH_MAX + 16];

	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(dir, len, "%s", dirname(copy));
}

/* MB/s (mean of the encrypt and decrypt medians) and CPU ns/B of one path at size @s. */
struct speed {
	double mbs, cpu;
};

static struct speed sw_speed(const struct calib_run *run, int s, int bits)
{
	const int k = bits ? 2 : 0;

	return (struct speed){ (run->sw[s][k].med + run->sw[s][k + 1].med) / 2,
			       (run->sw_cpu[s][k] + run->sw_cpu[s][k + 1]) / 2 };
}

static struct speed chacha_speed(const struct calib_run *run, int s)
{
	return (struct speed){ (run->chacha[s][0].med + run->chacha[s][1].med) / 2,
			       (run->chacha_cpu[s][0] + run->chacha_cpu[s][1]) / 2 };
}

static struct speed eng_speed(const struct calib_comp *cc, int s, int bits)
{
	const struct eip93_calib_cell *c = cc->table.cell[s] + (bits ? 2 : 0);

	return (struct speed){ (c[0].eng.med + c[1].eng.med) / 2,
			       (c[0].eng_cpu + c[1].eng_cpu) / 2 };
}

static const char *const mode_file[EIP93_CALIB_NMODES] = { "aes-ctr", "aes-cbc" };

/* A mode's MB/s and CPU: software (@r < 0) or row @r's engine, of the table of any row. */
static struct speed skc_speed(const struct calib_run *run, int m, int r, int s, int bits)
{
	const struct calib_skc *k = NULL;
	const struct eip93_calib_cell *c;

	for (int i = 0; i < EIP93_NENGINES && k == NULL; i++)
		if (run->skc[m][i].bound && (r < 0 || r == i))
			k = &run->skc[m][i];
	if (k == NULL)
		return (struct speed){ -1, -1 };
	c = k->table.cell[s] + (bits ? 2 : 0);
	if (r < 0)
		return (struct speed){ (c[0].sw.med + c[1].sw.med) / 2,
				       (c[0].sw_cpu + c[1].sw_cpu) / 2 };
	return (struct speed){ (c[0].eng.med + c[1].eng.med) / 2,
			       (c[0].eng_cpu + c[1].eng_cpu) / 2 };
}

/* AES-CTR/CBC's speed lines at size @s, and the TLS 1.2 CBC record's at its size. */
static void skc_speeds(FILE *f, const struct calib_run *run, const char *prefix, int s)
{
	size_t n = eip93_calib_sizes[s];

	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int b = 0; b < 2; b++)
			for (int r = -1; r < EIP93_NENGINES; r++) {
				struct speed x = skc_speed(run, m, r, s, b);

				if (x.mbs >= 0)
					fprintf(f, "%sspeed %zu aes-%d-%s:%s %.3f %.3f\n", prefix,
						n, b ? 256 : 128, mode_file[m] + 4,
						r < 0 ? "software" : run->skc[m][r].path, x.mbs,
						x.cpu);
			}
	for (int j = 0; n == ADV_TLS_RECORD && j < 1 + EIP93_NENGINES; j++) {
		const struct calib_tls12 *t = &run->tls12;

		if (t->ok[j] && (j == 0 || run->skc[EIP93_CALIB_CBC][j - 1].bound))
			fprintf(f, "%sspeed %zu %s:%s %.3f %.3f\n", prefix, n, ADV_TLS12_CBC,
				j == 0 ? "software" : run->skc[EIP93_CALIB_CBC][j - 1].path,
				(t->v[j][0].med + t->v[j][1].med) / 2,
				(t->cpu[j][0] + t->cpu[j][1]) / 2);
	}
}

void calib_print_speeds(FILE *f, const struct calib_run *run, const char *prefix)
{
	fprintf(f,
		"%sspeed lines: bytes, path (cipher:software or cipher:composition), MB/s (mean "
		"of the encrypt and decrypt medians), CPU ns per byte (user+sys of the process)\n",
		prefix);
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
		size_t n = eip93_calib_sizes[s];
		struct speed x;

		for (int b = 0; b < 2; b++) {
			x = sw_speed(run, s, b);
			fprintf(f, "%sspeed %zu aes-%d-gcm:software %.3f %.3f\n", prefix, n,
				b ? 256 : 128, x.mbs, x.cpu);
		}
		if (run->chacha_ok) {
			x = chacha_speed(run, s);
			fprintf(f, "%sspeed %zu chacha20-poly1305:software %.3f %.3f\n", prefix, n,
				x.mbs, x.cpu);
		}
		for (int i = 0; i < CALIB_NCOMP; i++)
			for (int b = 0; run->comp[i].bound && b < 2; b++) {
				x = eng_speed(&run->comp[i], s, b);
				fprintf(f, "%sspeed %zu aes-%d-gcm:%s %.3f %.3f\n", prefix, n,
					b ? 256 : 128, run->comp[i].path, x.mbs, x.cpu);
			}
		skc_speeds(f, run, prefix, s);
	}
}

/* The reference rows beside every path: MB/s / CPU ns per byte, one line per size. */
static void print_reference(FILE *f, const struct calib_run *run, const char *prefix)
{
	int e = 0;

	fprintf(f,
		"%sreference (ChaCha20-Poly1305 is measured, never routed): MB/s / CPU ns per "
		"byte, mean of encrypt and decrypt\n",
		prefix);
	for (int i = 0; i < CALIB_NCOMP; i++)
		if (run->comp[i].bound)
			fprintf(f, "%s  e%d = %s\n", prefix, ++e, run->comp[i].path);
	fprintf(f, "%s%6s %15s %15s %15s", prefix, "bytes", "sw-aes128-gcm", "sw-aes256-gcm",
		"chacha20-p1305");
	e = 0;
	for (int i = 0; i < CALIB_NCOMP; i++)
		if (run->comp[i].bound) {
			e++;
			fprintf(f, " %12s%d-128 %12s%d-256", "e", e, "e", e);
		}
	fputc('\n', f);
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
		struct speed a = sw_speed(run, s, 0), b = sw_speed(run, s, 1);
		struct speed c = run->chacha_ok ? chacha_speed(run, s) : (struct speed){ 0, 0 };

		fprintf(f, "%s%6zu %8.2f/%6.2f %8.2f/%6.2f %8.2f/%6.2f", prefix,
			eip93_calib_sizes[s], a.mbs, a.cpu, b.mbs, b.cpu, c.mbs, c.cpu);
		for (int i = 0; i < CALIB_NCOMP; i++)
			for (int k = 0; run->comp[i].bound && k < 2; k++) {
				struct speed x = eng_speed(&run->comp[i], s, k);

				fprintf(f, " %10.2f/%6.2f", x.mbs, x.cpu);
			}
		fputc('\n', f);
	}
}

/* One table: "@what @path: ..." (the header window.awk finds), its rows and its window. */
static void print_one(FILE *f, const char *what, const char *path,
		      const struct eip93_calib_table *t, const char *prefix)
{
	struct eip93_calib_choice ch;

	eip93_calib_decide(t, &ch);
	fprintf(f,
		"%s%s %s: %u rounds; MB/s median, slowest and fastest round; CPU ns per byte "
		"(median)\n",
		prefix, what, path, t->rounds);
	fprintf(f, "%s%6s %4s %3s %9s %9s %9s %9s %9s %9s %6s %8s %8s %s\n", prefix, "bytes", "key",
		"dir", "sw", "sw-min", "sw-max", "engine", "eng-min", "eng-max", "ratio", "sw-cpu",
		"eng-cpu", "row");
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++) {
		for (int k = 0; k < EIP93_CALIB_NCELLS; k++) {
			const struct eip93_calib_cell *c = &t->cell[s][k];

			fprintf(f,
				"%s%6zu %4d %3s %9.3f %9.3f %9.3f %9.3f %9.3f %9.3f %6.2f %8.2f "
				"%8.2f %s\n",
				prefix, eip93_calib_sizes[s], k < 2 ? 128 : 256,
				k % 2 == 0 ? "enc" : "dec", c->sw.med, c->sw.min, c->sw.max,
				c->eng.med, c->eng.min, c->eng.max,
				c->sw.med > 0 ? c->eng.med / c->sw.med : 0.0, c->sw_cpu, c->eng_cpu,
				eip93_calib_outcome_name(eip93_calib_cell_outcome(c)));
		}
		fprintf(f, "%s%6zu size: %s\n", prefix, eip93_calib_sizes[s],
			ch.size_wins[s] ? "engine wins" : "software");
	}
	if (ch.engine)
		fprintf(f, "%swindow %s: %zu-%zu\n", prefix, path, ch.min_size, ch.max_size);
	else
		fprintf(f, "%swindow %s: off\n", prefix, path);
}

void calib_print_table(FILE *f, const struct calib_run *run, const char *prefix)
{
	for (int i = 0; i < CALIB_NCOMP; i++)
		if (run->comp[i].bound)
			print_one(f, "composition", run->comp[i].path, &run->comp[i].table, prefix);
	for (int m = 0; m < EIP93_CALIB_NMODES; m++)
		for (int r = 0; r < EIP93_NENGINES; r++)
			if (run->skc[m][r].bound) {
				char path[128];

				snprintf(path, sizeof(path), "%s %s", mode_file[m],
					 run->skc[m][r].path);
				print_one(f, "mode", path, &run->skc[m][r].table, prefix);
			}
	print_reference(f, run, prefix);
}

int calib_check_writable(const char *path)
{
	char dir[EIP93_CFG_PATH_MAX + 16], tmp[EIP93_CFG_PATH_MAX + 48];
	int fd, err = 0;

	dir_of(path, dir, sizeof(dir));
	/* mkdir -p: /var/lib/eip93 on a fresh box. */
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		{
			char c = *p;

			*p = '\0';
			err = mkdir(dir, 0755) < 0 && errno != EEXIST ? errno : 0;
			*p = c;
		}
		if (err != 0 || *p == '\0')
			break;
	}
	if (err != 0) {
		fprintf(stderr, "eip93-doctor calibrate: cannot create %s: %s%s\n", dir,
			strerror(err),
			err == EACCES || err == EPERM ? " (run it as root, or pass --output PATH)"
						      : "");
		return -err;
	}
	snprintf(tmp, sizeof(tmp), "%s/.eip93-calibration.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "eip93-doctor calibrate: cannot write %s: %s%s\n", path,
			strerror(err),
			err == EACCES || err == EPERM || err == EROFS
				? " (run it as root, or pass --output PATH; nothing was measured)"
				: "");
		return -err;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

int calib_write_file(const char *path, const struct eip93_calib *c, const struct calib_run *run)
{
	char dir[EIP93_CFG_PATH_MAX + 16], tmp[EIP93_CFG_PATH_MAX + 48];
	char *text = NULL, *table = NULL, *speeds = NULL;
	size_t tlen = 0, slen = 0;
	FILE *mem;
	int fd = -1, n, r = -EIO;

	/*
	 * As '#' comments: the speed lines (the doctor's recommendation reads
	 * them), then the table when it fits: the file says what it was decided
	 * from.
	 */
	mem = open_memstream(&speeds, &slen);
	if (mem == NULL)
		return -ENOMEM;
	calib_print_speeds(mem, run, "# ");
	fflush(mem); /* slen is up to date after a flush */
	if (slen + 2048 < EIP93_CALIB_MAX_FILE) {
		FILE *t = open_memstream(&table, &tlen);

		if (t == NULL) {
			fclose(mem);
			r = -ENOMEM;
			goto out;
		}
		calib_print_table(t, run, "# ");
		fclose(t);
		if (slen + tlen + 2048 < EIP93_CALIB_MAX_FILE)
			fputs(table, mem);
	}
	fclose(mem);
	text = malloc(EIP93_CALIB_MAX_FILE);
	if (text == NULL)
		goto out;
	n = eip93_calib_format(c, slen + 2048 < EIP93_CALIB_MAX_FILE ? speeds : NULL, text,
			       EIP93_CALIB_MAX_FILE);
	if (n < 0) {
		r = n;
		goto out;
	}
	dir_of(path, dir, sizeof(dir));
	snprintf(tmp, sizeof(tmp), "%s/.eip93-calibration.XXXXXX", dir);
	fd = mkstemp(tmp);
	if (fd < 0) {
		r = -errno;
		goto out;
	}
	if (fchmod(fd, 0644) < 0 || write(fd, text, (size_t)n) != n || fsync(fd) < 0) {
		r = -errno;
		unlink(tmp);
		goto out;
	}
	close(fd);
	fd = -1;
	if (rename(tmp, path) < 0) {
		r = -errno;
		unlink(tmp);
		goto out;
	}
	r = 0;
out:
	if (fd >= 0)
		close(fd);
	free(text);
	free(table);
	free(speeds);
	return r;
}

/* One size's row of the plot's data: MB/s columns, then CPU ns/B columns. */
static void plot_row(FILE *f, const struct calib_run *run, int s)
{
	struct speed x[2 + 2 * CALIB_NCOMP];
	int n = 0;

	x[n].mbs = (sw_speed(run, s, 0).mbs + sw_speed(run, s, 1).mbs) / 2;
	x[n++].cpu = (sw_speed(run, s, 0).cpu + sw_speed(run, s, 1).cpu) / 2;
	if (run->chacha_ok)
		x[n++] = chacha_speed(run, s);
	for (int i = 0; i < CALIB_NCOMP; i++)
		if (run->comp[i].bound) {
			x[n].mbs = (eng_speed(&run->comp[i], s, 0).mbs +
				    eng_speed(&run->comp[i], s, 1).mbs) /
				   2;
			x[n++].cpu = (eng_speed(&run->comp[i], s, 0).cpu +
				      eng_speed(&run->comp[i], s, 1).cpu) /
				     2;
		}
	fprintf(f, "%zu", eip93_calib_sizes[s] / 1024);
	for (int j = 0; j < n; j++)
		fprintf(f, " %.3f", x[j].mbs);
	for (int j = 0; j < n; j++)
		fprintf(f, " %.3f", x[j].cpu);
	fputc('\n', f);
}

/* The plot's series, in the data file's column order: "title" for each. */
static int plot_series(const struct calib_run *run, const char **titles)
{
	int n = 0;

	titles[n++] = "software AES-GCM (default provider)";
	if (run->chacha_ok)
		titles[n++] = "ChaCha20-Poly1305 (reference, never routed)";
	for (int i = 0; i < CALIB_NCOMP; i++)
		if (run->comp[i].bound)
			titles[n++] = run->comp[i].path;
	return n;
}

int calib_plot(const char *png, const struct calib_run *run, const char *title)
{
	char dat[] = "/tmp/eip93-plot-XXXXXX";
	const char *titles[2 + CALIB_NCOMP];
	FILE *f, *gp;
	int fd, status, n = plot_series(run, titles);

	if (n < 2)
		return -ENOENT;
	fd = mkstemp(dat);
	if (fd < 0 || (f = fdopen(fd, "w")) == NULL) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	fprintf(f, "# KiB, MB/s then CPU ns/B of:");
	for (int j = 0; j < n; j++)
		fprintf(f, " [%s]", titles[j]);
	fputc('\n', f);
	for (int s = 0; s < EIP93_CALIB_NSIZES; s++)
		plot_row(f, run, s);
	fclose(f);
	/* A missing gnuplot must not kill the calibration with SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	gp = popen("command -v gnuplot >/dev/null && exec gnuplot", "w");
	if (gp == NULL) {
		unlink(dat);
		return -errno;
	}
	fprintf(gp,
		"set terminal png size 1200,600 font ',10'\nset output '%s'\n"
		"set multiplot layout 1,2 title \"%s\" noenhanced\nset xlabel 'payload (KiB)'\n"
		"set logscale x 2\nset xtics (1,2,4,8,16,32,48,64)\nset key below "
		"noenhanced\nset grid\nset yrange [0:*]\n",
		png, title);
	for (int pass = 0; pass < 2; pass++) {
		fprintf(gp, "set ylabel '%s'\nplot ",
			pass ? "CPU ns per byte (user+sys; lower is better)"
			     : "MB/s (mean of enc/dec medians; AES: of 128/256)");
		for (int j = 0; j < n; j++)
			fprintf(gp, "%s'%s' using 1:%d with linespoints lw 2 title '%s'",
				j ? ", " : "", dat, 2 + j + pass * n, titles[j]);
		fputc('\n', gp);
	}
	fprintf(gp, "unset multiplot\n");
	status = pclose(gp);
	unlink(dat);
	if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return -EIO;
	return 0;
}
