/*
 * fuzz_spi_frames.c - the SPI frame decoders (app/fsw/fsw_proto.c), both
 * directions: the first two input bytes choose the configured frame length
 * (FSW_SPI_FRAME_MIN..MAX), the rest is the transfer, given as an exact-size
 * heap copy
 */
#include "fuzz.h"
#include "app/fsw/fsw_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fsw_spi_act act;
	struct fsw_spi_sens sens;
	size_t frame_len, len;
	uint8_t *copy;

	if (size < 2)
		return 0;
	frame_len = FSW_SPI_FRAME_MIN + (data[0] | (size_t)data[1] << 8) % (FSW_SPI_FRAME_MAX - FSW_SPI_FRAME_MIN + 1);
	len = size - 2;
	copy = malloc(len ? len : 1);
	if (!copy)
		abort();
	memcpy(copy, data + 2, len);
	(void)fsw_spi_decode_act(copy, len, frame_len, &act);
	(void)fsw_spi_decode_sens(copy, len, frame_len, &sens);
	free(copy);
	return 0;
}
