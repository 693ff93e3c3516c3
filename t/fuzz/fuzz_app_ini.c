/* fuzz_app_ini.c - the flight app's profile INI (app/config.c): load over the defaults, then the table checks */
#include "fuzz.h"
#include "app/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct app_config cfg;
	char err[512], *text = fuzz_string(data, size);

	app_config_defaults(&cfg);
	if (!app_config_load_string(&cfg, "fuzz.ini", text, err, sizeof(err)))
		(void)app_config_check(&cfg, err, sizeof(err));
	free(text);
	return 0;
}
