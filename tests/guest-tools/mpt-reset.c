// SPDX-License-Identifier: GPL-2.0
/*
 * mpt-reset: trigger a Fusion MPT IOC reset from a busybox guest.
 *
 *   mpt-reset host /dev/sdX   SG_SCSI_RESET host reset: SCSI EH calls
 *                             mptscsih_host_reset() ->
 *                             mpt_Soft_Hard_ResetHandler() (message unit
 *                             reset; diag/hard reset if that fails)
 *   mpt-reset ioc N           MPTHARDRESET on /dev/mptctl (FUSION_CTL):
 *                             mpt_HardResetHandler() ->
 *                             mpt_do_ioc_recovery() -> diag reset
 *
 * Build statically on the host: gcc -static -O2 -o mpt-reset mpt-reset.c
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <scsi/sg.h>

/* drivers/message/fusion/mptctl.h */
struct mpt_ioctl_header {
	unsigned int iocnum;
	unsigned int port;
	int maxDataSize;
};

struct mpt_ioctl_diag_reset {
	struct mpt_ioctl_header hdr;
};

#define MPT_MAGIC_NUMBER	'm'
#define MPTHARDRESET	_IOWR(MPT_MAGIC_NUMBER, 24, struct mpt_ioctl_diag_reset)

int main(int argc, char **argv)
{
	int fd, ret;

	if (argc != 3)
		goto usage;

	if (!strcmp(argv[1], "host")) {
		int op = SG_SCSI_RESET_HOST;

		fd = open(argv[2], O_RDWR | O_NONBLOCK);
		if (fd < 0)
			goto err;
		ret = ioctl(fd, SG_SCSI_RESET, &op);
	} else if (!strcmp(argv[1], "ioc")) {
		struct mpt_ioctl_diag_reset r = {
			.hdr.iocnum = strtoul(argv[2], NULL, 0),
		};

		fd = open("/dev/mptctl", O_RDWR);
		if (fd < 0)
			goto err;
		ret = ioctl(fd, MPTHARDRESET, &r);
	} else {
		goto usage;
	}
	if (ret < 0)
		goto err;
	close(fd);
	return 0;

err:
	fprintf(stderr, "mpt-reset: %s: %s\n", argv[2], strerror(errno));
	return 1;
usage:
	fprintf(stderr, "usage: mpt-reset host /dev/sdX | mpt-reset ioc N\n");
	return 2;
}
