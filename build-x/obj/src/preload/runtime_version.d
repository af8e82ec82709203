build-x/obj/src/preload/runtime_version.o: src/preload/runtime_version.c \
 src/preload/runtime_version.h
src/preload/runtime_version.h:
