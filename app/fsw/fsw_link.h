/*
 * fsw_link.h - the device links of the flight software, behind two small
 * operation tables so the io task does not care what is underneath:
 *
 *   UART  read(): non-blocking, returns the bytes available now (0 if none)
 *     "uart"       a termios serial device (/dev/ttyS*, /dev/ttyUSB*) or the
 *                  pseudo-terminal sensorsim offers: raw 8N1 at 'baud'
 *   SPI   send() one full-duplex frame out, recv() the frame that came back
 *     "seqpacket"  sensorsim's emulation: a UNIX SOCK_SEQPACKET socket, one
 *                  datagram per transfer; recv() is non-blocking, so the
 *                  answer to slot k's transfer is read in slot k+1
 *     "spidev"     Linux spidev: send() runs SPI_IOC_MESSAGE(1) (the
 *                  hardware transfer is synchronous), recv() hands back the
 *                  bytes clocked in during it
 *   "mem"          set up by the test harness with its own functions
 *
 * recv() also tells when the frame it returns arrived (rx_ns): the seqpacket
 * backend from the kernel's receive stamp (SO_TIMESTAMPNS, moved from
 * CLOCK_REALTIME to CLOCK_MONOTONIC), spidev at the return of the ioctl; the
 * io task times its transfers with it.
 *
 * Opening is setup code (may fail, returns -errno); read / send / recv are
 * the planned syscalls of the realtime path: no allocation, no blocking.
 */
#ifndef FSW_LINK_H
#define FSW_LINK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct fsw_uart_link {
	ssize_t (*read)(void *ctx, uint8_t *buf, size_t n);	/* bytes, 0 none now, -errno */
	void *ctx;
	int   fd;
};

struct fsw_spi_link {
	ssize_t (*send)(void *ctx, const uint8_t *tx, size_t n);	/* n or -errno */
	ssize_t (*recv)(void *ctx, uint8_t *rx, size_t n);		/* bytes of one frame, 0 none, -errno */
	void *ctx;
	int   fd;
	uint32_t speed_hz;		/* spidev */
	uint8_t  rx[4096];		/* spidev: what came back in the last transfer */
	size_t   rx_len;
	int64_t  rx_ns;			/* CLOCK_MONOTONIC arrival of the frame recv() returned, 0 unknown */
};

/* fsw_uart_open - a termios device or pty in raw mode at baud; 0 or -errno */
int fsw_uart_open(struct fsw_uart_link *l, const char *path, int baud);
/* fsw_spi_open_seqpacket - connect to an SPI emulation socket; 0 or -errno */
int fsw_spi_open_seqpacket(struct fsw_spi_link *l, const char *path);
/* fsw_spi_open_spidev - a Linux spidev device, mode 0, 8 bits, speed_hz; 0 or -errno */
int fsw_spi_open_spidev(struct fsw_spi_link *l, const char *path, uint32_t speed_hz);
void fsw_uart_close(struct fsw_uart_link *l);
void fsw_spi_close(struct fsw_spi_link *l);

/* fsw_baud_const - the termios speed constant of a baud rate; 0 or -EINVAL */
int fsw_baud_const(int baud, unsigned int *speed);

#endif
