// SPDX-License-Identifier: GPL-2.0
/*
 * write-value FILE VALUE: write VALUE (no newline) to FILE in one write(2),
 * as "echo -n VALUE > FILE" would, and report the outcome in a form the
 * guest tests can match: prints "ok" or the errno name (e.g. "EINVAL") and
 * exits 0 on success, 1 on failure.  Busybox's shell builtins do not
 * report write errors reliably, hence this helper.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EBUSY: return "EBUSY";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	size_t len;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: write-value FILE VALUE\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	len = strlen(argv[2]);
	n = write(fd, argv[2], len);
	if (n < 0) {
		printf("%s\n", errno_name(errno));
		close(fd);
		return 1;
	}
	if (close(fd) < 0) {
		printf("%s\n", errno_name(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}
