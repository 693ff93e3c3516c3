/*
 * fuzz_uart_stream.c - the UART stream parser (app/fsw/fsw_proto.c): the
 * input fed in chunks whose sizes come from the input's first byte, as the io
 * task's non-blocking reads deliver it; every counter must add up
 */
#include "fuzz.h"
#include "app/fsw/fsw_proto.h"

static void fuzz_imu(void *ctx, const struct fsw_imu_sample *s) { ++*(uint64_t *)ctx; }
static void fuzz_gps(void *ctx, const struct fsw_gps_fix *f) { ++*(uint64_t *)ctx; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fsw_uart_parser p;
	uint64_t delivered = 0;
	struct fsw_uart_sink sink = { fuzz_imu, fuzz_gps, &delivered };
	size_t chunk, off = 1;

	if (!size)
		return 0;
	chunk = 1 + data[0] % 64;
	fsw_uart_parser_init(&p);
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk;

		fsw_uart_parser_feed(&p, data + off, n, &sink);
		off += n;
	}
	if (p.bytes != size - 1 || delivered != p.imu_frames + p.gps_frames || p.len > sizeof(p.buf))
		abort();	/* the parser lost count */
	return 0;
}
