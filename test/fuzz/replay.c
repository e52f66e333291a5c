// SPDX-License-Identifier: Apache-2.0
/*
 * eip93-fuzz-replay: the fuzzer's scripts without libFuzzer (any compiler).
 *   eip93-fuzz-replay [--print] FILE|DIR...   run each input, report divergences
 *   eip93-fuzz-replay --emit DIR              write the seed corpus (seeds.c)
 * Exit status: 0 all agree, 1 a divergence, 2 usage or setup error.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "seeds.h"

static int print;
static unsigned long files, bad;

static void run_file(const char *path)
{
	unsigned char *buf;
	FILE *f = fopen(path, "rb");
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "eip93-fuzz-replay: cannot read %s\n", path);
		exit(2);
	}
	buf = fz_xmalloc((size_t)n);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "eip93-fuzz-replay: cannot read %s\n", path);
		exit(2);
	}
	fclose(f);
	if (print)
		printf("== %s (%ld bytes)\n", path, n);
	files++;
	if (fz_harness_one(buf, (size_t)n, print) != 0) {
		bad++;
		fprintf(stderr, "eip93-fuzz-replay: DIVERGENCE in %s\n", path);
	}
	free(buf);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
	struct stat st;
	struct dirent *d;
	char **v = NULL;
	size_t n = 0;
	DIR *dir;

	if (stat(path, &st) != 0) {
		fprintf(stderr, "eip93-fuzz-replay: no such file: %s\n", path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	dir = opendir(path);
	while (dir != NULL && (d = readdir(dir)) != NULL) {
		size_t l = strlen(path) + strlen(d->d_name) + 2;

		/* Inputs only: the README and dot files document the corpus. */
		if (d->d_name[0] == '.' || strcmp(d->d_name, "README") == 0 ||
		    strstr(d->d_name, ".md") != NULL)
			continue;
		v = realloc(v, (n + 1) * sizeof(*v));
		if (v == NULL)
			exit(2);
		v[n] = fz_xmalloc(l);
		snprintf(v[n++], l, "%s/%s", path, d->d_name);
	}
	if (dir != NULL)
		closedir(dir);
	if (v == NULL)
		return;
	qsort(v, n, sizeof(*v), cmp);
	for (size_t i = 0; i < n; i++) {
		run_file(v[i]);
		free(v[i]);
	}
	free(v);
}

int main(int argc, char **argv)
{
	int first = 1;

	if (argc == 3 && strcmp(argv[1], "--emit") == 0)
		return fz_emit_seeds(argv[2]) == 0 ? 0 : 2;
	if (argc > 1 && strcmp(argv[1], "--print") == 0) {
		print = 1;
		first = 2;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: eip93-fuzz-replay [--print] FILE|DIR... | --emit DIR\n");
		return 2;
	}
	fz_harness_init();
	for (int i = first; i < argc; i++)
		run_path(argv[i]);
	fz_harness_summary("eip93-fuzz-replay: ");
	fprintf(stderr, "eip93-fuzz-replay: %lu inputs, %lu divergent\n", files, bad);
	fz_harness_done();
	if (files == 0) {
		fprintf(stderr, "eip93-fuzz-replay: no inputs\n");
		return 2;
	}
	return bad != 0;
}
