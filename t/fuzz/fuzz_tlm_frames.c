/*
 * fuzz_tlm_frames.c - telemetry frames (docs/fsw.md "Telemetry"): the frame
 * decoder (app/fsw/fsw_tlm.c) and the ground-station receiver's accounting
 * (bench/loads/tlm_rx.c) over a sequence of datagrams. Input: records of
 * [length byte][receive-time step byte][datagram]
 */
#include "fuzz.h"
#include "app/fsw/fsw_tlm.h"
#include "bench/loads/tlm_rx.h"

#include <jansson.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tlm_rx rx;
	struct fsw_tlm_frame f;
	int64_t rx_ns = 1000000000;
	size_t off = 0;
	json_t *j;

	if (tlm_rx_init(&rx, "127.0.0.1:5203", 50000000))
		return 0;
	while (off + 2 <= size) {
		size_t len = data[off];
		const uint8_t *dg = data + off + 2;
		uint8_t *copy;

		rx_ns += (int64_t)data[off + 1] * 1000000;
		if (len > size - off - 2)
			len = size - off - 2;
		copy = malloc(len ? len : 1);
		if (!copy)
			abort();
		memcpy(copy, dg, len);
		(void)fsw_tlm_decode(copy, len, &f);
		tlm_rx_frame(&rx, copy, len, rx_ns);
		free(copy);
		off += 2 + len;
	}
	j = tlm_rx_json(&rx, "{\"telemetry\": {\"sent\": 7}}");
	json_decref(j);
	tlm_rx_close(&rx);
	return 0;
}
