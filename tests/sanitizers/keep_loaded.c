/* Preloaded into the `asan` test preset's processes (CMakePresets.json). LeakSanitizer reports
   at exit, after the Vulkan loader has unloaded the validation layer and the driver; the frames
   of what those libraries allocated then belong to no module, and lsan.supp could not name them.
   A dlclose that unloads nothing keeps every library mapped until exit. Being preloaded, it
   comes before the ASan runtime, hence verify_asan_link_order=0 in the preset. */
int dlclose(void* handle) {
    (void)handle;
    return 0;
}
