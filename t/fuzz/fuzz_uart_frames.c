/*
 * fuzz_uart_frames.c - the UART frame decoders standing alone
 * (app/fsw/fsw_proto.c): an IMU frame and a UBX NAV-PVT payload, each given
 * exactly the input's bytes (a heap copy of that size, so that a read past
 * the length is an AddressSanitizer error)
 */
#include "fuzz.h"
#include "app/fsw/fsw_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsw_imu_sample imu;
	struct fsw_gps_fix fix;
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		abort();
	memcpy(copy, data, size);
	(void)fsw_imu_decode(copy, size, &imu);
	(void)fsw_ubx_decode_pvt(copy, size, &fix);
	free(copy);
	return 0;
}
