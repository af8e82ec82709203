build-x/obj/src/conf/number.o: src/conf/number.c src/conf/number.h
src/conf/number.h:
