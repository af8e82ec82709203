build-x/obj/src/record/clock.o: src/record/clock.c src/record/clock.h
src/record/clock.h:
