/*
 * fsw_link.c - UART (termios, pty), SPI over a UNIX seqpacket socket and
 * Linux spidev backends of fsw_link.h. The realtime functions are one
 * non-blocking read / send / recv or one SPI_IOC_MESSAGE ioctl each.
 */
#include "fsw_link.h"
#include "common.h"
#include "fsw_tlm.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/spi/spidev.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

int fsw_baud_const(int baud, unsigned int *speed)
{
	static const struct { int baud; unsigned int c; } t[] = {
		{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
		{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 }, { 921600, B921600 },
		{ 1000000, B1000000 }, { 2000000, B2000000 }, { 3000000, B3000000 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (t[i].baud == baud) {
			*speed = t[i].c;
			return 0;
		}
	return -EINVAL;
}

/*
 * fd_read - non-blocking read of what the line discipline holds: bytes, 0
 * when nothing is there. It asks first (FIONREAD) and reads at most that
 * much, because a read that finds the tty empty -- even with O_NONBLOCK --
 * waits in n_tty_read for the tty's flip-buffer work (flush_work), which
 * runs in a SCHED_OTHER kworker: a priority inversion that blocked the io
 * task for up to 270 ms here (docs/fsw.md).
 */
static ssize_t fd_read(void *ctx, uint8_t *buf, size_t n)
{
	struct fsw_uart_link *l = ctx;
	int avail = 0;
	ssize_t r;

	if (ioctl(l->fd, FIONREAD, &avail) < 0)
		return -errno;
	if (avail <= 0)
		return 0;
	if ((size_t)avail < n)
		n = (size_t)avail;
	r = read(l->fd, buf, n);

	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	return r;
}

int fsw_uart_open(struct fsw_uart_link *l, const char *path, int baud)
{
	struct termios tio;
	unsigned int speed;
	int rc;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if (fsw_baud_const(baud, &speed))
		return -EINVAL;
	l->fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (l->fd < 0)
		return -errno;
	if (tcgetattr(l->fd, &tio) < 0)
		goto fail;
	cfmakeraw(&tio);
	tio.c_cflag |= CLOCAL | CREAD;
	tio.c_cc[VMIN] = 0;
	tio.c_cc[VTIME] = 0;
	if (cfsetispeed(&tio, speed) < 0 || cfsetospeed(&tio, speed) < 0 || tcsetattr(l->fd, TCSANOW, &tio) < 0)
		goto fail;
	l->read = fd_read;
	l->ctx = l;
	return 0;
fail:
	rc = -errno;
	close(l->fd);
	l->fd = -1;
	return rc;
}

static ssize_t sock_send(void *ctx, const uint8_t *tx, size_t n)
{
	struct fsw_spi_link *l = ctx;
	ssize_t r = send(l->fd, tx, n, MSG_DONTWAIT | MSG_NOSIGNAL);

	return r < 0 ? -errno : r;
}

/*
 * sock_recv - one frame, and its arrival time from the kernel's receive
 * stamp (CLOCK_REALTIME, taken when the peer's send queued it) moved to
 * CLOCK_MONOTONIC (fsw_realtime_to_mono_ns)
 */
static ssize_t sock_recv(void *ctx, uint8_t *rx, size_t n)
{
	struct fsw_spi_link *l = ctx;
	union { struct cmsghdr align; char buf[CMSG_SPACE(sizeof(struct timespec))]; } ctl;
	struct iovec iov = { .iov_base = rx, .iov_len = n };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			      .msg_controllen = sizeof(ctl.buf) };
	struct cmsghdr *c;
	ssize_t r = recvmsg(l->fd, &msg, MSG_DONTWAIT);

	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	l->rx_ns = 0;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
			struct timespec ts;

			memcpy(&ts, CMSG_DATA(c), sizeof(ts));
			l->rx_ns = fsw_realtime_to_mono_ns(pf_ts_to_ns(&ts));
		}
	return r;
}

int fsw_spi_open_seqpacket(struct fsw_spi_link *l, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int rc;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	l->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (l->fd < 0)
		return -errno;
	if (connect(l->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		rc = -errno;
		close(l->fd);
		l->fd = -1;
		return rc;
	}
	(void)setsockopt(l->fd, SOL_SOCKET, SO_TIMESTAMPNS, &(int){ 1 }, sizeof(int));	/* else rx_ns 0 */
	l->send = sock_send;
	l->recv = sock_recv;
	l->ctx = l;
	return 0;
}

static ssize_t spidev_send(void *ctx, const uint8_t *tx, size_t n)
{
	struct fsw_spi_link *l = ctx;
	struct spi_ioc_transfer xfer;

	if (n > sizeof(l->rx))
		return -EMSGSIZE;
	memset(&xfer, 0, sizeof(xfer));
	xfer.tx_buf = (uintptr_t)tx;
	xfer.rx_buf = (uintptr_t)l->rx;
	xfer.len = (uint32_t)n;
	xfer.speed_hz = l->speed_hz;
	xfer.bits_per_word = 8;
	if (ioctl(l->fd, SPI_IOC_MESSAGE(1), &xfer) < 0)
		return -errno;
	l->rx_ns = pf_now_ns();
	l->rx_len = n;
	return (ssize_t)n;
}

static ssize_t spidev_recv(void *ctx, uint8_t *rx, size_t n)
{
	struct fsw_spi_link *l = ctx;
	size_t len = l->rx_len < n ? l->rx_len : n;

	memcpy(rx, l->rx, len);
	l->rx_len = 0;
	return (ssize_t)len;
}

int fsw_spi_open_spidev(struct fsw_spi_link *l, const char *path, uint32_t speed_hz)
{
	uint8_t mode = SPI_MODE_0, bits = 8;
	int rc;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	l->fd = open(path, O_RDWR | O_CLOEXEC);
	if (l->fd < 0)
		return -errno;
	if (ioctl(l->fd, SPI_IOC_WR_MODE, &mode) < 0 || ioctl(l->fd, SPI_IOC_WR_BITS_PER_WORD, &bits) < 0 ||
	    ioctl(l->fd, SPI_IOC_WR_MAX_SPEED_HZ, &speed_hz) < 0) {
		rc = -errno;
		close(l->fd);
		l->fd = -1;
		return rc;
	}
	l->speed_hz = speed_hz;
	l->send = spidev_send;
	l->recv = spidev_recv;
	l->ctx = l;
	return 0;
}

void fsw_uart_close(struct fsw_uart_link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

void fsw_spi_close(struct fsw_spi_link *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}
