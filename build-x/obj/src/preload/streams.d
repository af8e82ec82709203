build-x/obj/src/preload/streams.o: src/preload/streams.c \
 src/preload/streams.h src/preload/hot.h
src/preload/streams.h:
src/preload/hot.h:
