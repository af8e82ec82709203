build-x/obj/src/preload/config.o: src/preload/config.c \
 src/preload/config.h src/conf/number.h
src/preload/config.h:
src/conf/number.h:
