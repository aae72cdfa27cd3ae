"""A course-style test file for seed 002's ``soko.py``.

Written the way the course's ``soko_test.py`` is (plain functions with
``assert``, a ``main()`` that runs them all and prints a message), and kept
free of anything of this project but ``import soko``: it must pass unchanged
against our ``soko``. Like the course's file it asks only what seed 002 asks:
rectangular grids, truth values of the observers (``assert``/``assert not``),
``w, h = dimensiones(...)`` (a list works too), ``==`` between grids (no
``hash``), and it builds grids with fewer boxes than goals (erratum E25). Run it as the course does::

    python3 soko_test.py          # uses the installed soko (no soko.py next to it)
    python -P -m soko soko_test.py   # uses ours even if a soko.py sits next to it

pytest also collects its ``test*`` functions.
"""

import pprint

import soko

OESTE = (-1, 0)
ESTE = (1, 0)
NORTE = (0, -1)
SUR = (0, 1)

CONTENIDO = {
    '#': (True, False, False, False),   # pared, objetivo, jugador, caja
    '.': (False, True, False, False),
    '$': (False, False, False, True),
    '@': (False, False, True, False),
    '*': (False, True, False, True),
    '+': (False, True, True, False),
    ' ': (False, False, False, False),
}


def verificar_estado(desc, grilla):
    '''Cada celda de la grilla tiene lo que dice la descripción (las filas
    tienen todas el mismo largo: la grilla es rectangular).'''
    try:
        w, h = soko.dimensiones(grilla)
        assert (w, h) == (len(desc[0]), len(desc))
        for f, fila in enumerate(desc):
            for c, caracter in enumerate(fila):
                esperado = CONTENIDO[caracter]
                # Como las pruebas del curso: se mira el valor de verdad.
                actual = (bool(soko.hay_pared(grilla, c, f)), bool(soko.hay_objetivo(grilla, c, f)),
                          bool(soko.hay_jugador(grilla, c, f)), bool(soko.hay_caja(grilla, c, f)))
                assert actual == esperado, (c, f, caracter, actual)
    except AssertionError:
        print('Estado esperado:')
        print('\n'.join(desc))
        print('Estado actual:')
        pprint.pprint(grilla)
        raise


def test_crear_sin_ganar():
    '''Prueba: una grilla recién creada con una caja fuera del objetivo'''
    desc = [
        '######',
        '#@ $.#',
        '######',
    ]
    grilla = soko.crear_grilla(desc)
    verificar_estado(desc, grilla)
    assert not soko.juego_ganado(grilla)


def test_jugador_sobre_objetivo():
    '''Prueba: el jugador empieza sobre un objetivo'''
    desc = [
        '######',
        '#+ $ #',
        '######',
    ]
    grilla = soko.crear_grilla(desc)
    verificar_estado(desc, grilla)
    assert not soko.juego_ganado(grilla)


def test_ganado_desde_el_comienzo():
    '''Prueba: todas las cajas ya están en objetivos'''
    desc = [
        '#####',
        '#*@*#',
        '#####',
    ]
    grilla = soko.crear_grilla(desc)
    verificar_estado(desc, grilla)
    assert soko.juego_ganado(grilla)


def test_mas_cajas_que_objetivos():
    '''Prueba: sobran cajas; se gana cuando cada objetivo tiene una'''
    desc = [
        '#######',
        '#@$*$ #',
        '#######',
    ]
    grilla = soko.crear_grilla(desc)
    verificar_estado(desc, grilla)
    assert soko.juego_ganado(grilla)


def test_espacios_fuera_de_las_paredes():
    '''Prueba: las filas se completan con espacios fuera de las paredes'''
    desc = [
        '  ####',
        '###@.#',
        '# $  #',
        '######',
    ]
    grilla = soko.crear_grilla(desc)
    verificar_estado(desc, grilla)
    assert soko.mover(grilla, NORTE) == grilla


def test_objetivo_sin_caja():
    '''Prueba: el jugador sobre el único objetivo, sin ninguna caja'''
    desc = [
        '#####',
        '# + #',
        '#   #',
        '#####',
    ]
    grilla = soko.crear_grilla(desc)
    verificar_estado(desc, grilla)
    assert not soko.juego_ganado(grilla)
    grilla = soko.mover(grilla, SUR)
    verificar_estado([
        '#####',
        '# . #',
        '# @ #',
        '#####',
    ], grilla)
    assert not soko.juego_ganado(grilla)


def test_una_caja_dos_objetivos():
    '''Prueba: una caja que pasa de un objetivo a otro (hay dos objetivos)'''
    desc = [
        '#######',
        '# @*. #',
        '#######',
    ]
    grilla = soko.crear_grilla(desc)
    grilla = soko.mover(grilla, ESTE)
    verificar_estado([
        '#######',
        '#  +* #',
        '#######',
    ], grilla)
    assert not soko.juego_ganado(grilla)


def test_mover_no_modifica():
    '''Prueba: mover devuelve una grilla nueva y no toca la recibida'''
    desc1 = [
        '#######',
        '# @$ .#',
        '#######',
    ]
    desc2 = [
        '#######',
        '#  @$.#',
        '#######',
    ]
    grilla1 = soko.crear_grilla(desc1)
    grilla2 = soko.mover(grilla1, ESTE)
    verificar_estado(desc1, grilla1)
    verificar_estado(desc2, grilla2)
    assert grilla1 != grilla2
    assert soko.mover(grilla1, ESTE) == grilla2


def test_paredes_bloquean():
    '''Prueba: contra una pared el jugador no se mueve'''
    desc = [
        '#####',
        '#@  #',
        '#   #',
        '#####',
    ]
    grilla = soko.crear_grilla(desc)
    assert soko.mover(grilla, NORTE) == grilla
    assert soko.mover(grilla, OESTE) == grilla
    grilla = soko.mover(soko.mover(grilla, ESTE), ESTE)
    assert soko.mover(grilla, ESTE) == grilla
    grilla = soko.mover(grilla, SUR)
    assert soko.mover(grilla, SUR) == grilla
    verificar_estado([
        '#####',
        '#   #',
        '#  @#',
        '#####',
    ], grilla)


def test_caja_contra_pared_o_caja():
    '''Prueba: una caja contra una pared u otra caja no se mueve'''
    casos = [
        ['#######',
         '# @$# #',
         '# .   #',
         '#######'],
        ['#######',
         '# @$$ #',
         '# ..  #',
         '#######'],
        ['#######',
         '# @$* #',
         '# .   #',
         '#######'],
        ['#######',
         '# @*$ #',
         '#   . #',
         '#######'],
    ]
    for desc in casos:
        grilla = soko.crear_grilla(desc)
        assert soko.mover(grilla, ESTE) == grilla
        verificar_estado(desc, soko.mover(grilla, ESTE))


def test_empujar_hasta_ganar():
    '''Prueba: empujar la caja hasta el objetivo gana el juego'''
    desc = [
        '#######',
        '#@$  .#',
        '#######',
    ]
    grilla = soko.crear_grilla(desc)
    for _ in range(2):
        grilla = soko.mover(grilla, ESTE)
        assert not soko.juego_ganado(grilla)
    grilla = soko.mover(grilla, ESTE)
    verificar_estado([
        '#######',
        '#   @*#',
        '#######',
    ], grilla)
    assert soko.juego_ganado(grilla)


def test_sacar_caja_del_objetivo():
    '''Prueba: una caja puede salir de un objetivo'''
    desc = [
        '#######',
        '#@* $.#',
        '#######',
    ]
    grilla = soko.crear_grilla(desc)
    grilla = soko.mover(grilla, ESTE)
    verificar_estado([
        '#######',
        '# +$$.#',
        '#######',
    ], grilla)
    assert not soko.juego_ganado(grilla)


def test_jugador_pisa_objetivo():
    '''Prueba: el jugador camina sobre un objetivo y sigue'''
    desc = [
        '#######',
        '#$ .@ #',
        '#######',
    ]
    grilla = soko.crear_grilla(desc)
    grilla = soko.mover(grilla, OESTE)
    verificar_estado([
        '#######',
        '#$ +  #',
        '#######',
    ], grilla)
    grilla = soko.mover(grilla, OESTE)
    verificar_estado([
        '#######',
        '#$@.  #',
        '#######',
    ], grilla)
    grilla = soko.mover(grilla, ESTE)
    grilla = soko.mover(grilla, ESTE)
    verificar_estado([
        '#######',
        '#$ .@ #',
        '#######',
    ], grilla)


def test_grillas_como_valores():
    '''Prueba: dos grillas creadas igual son iguales (==)'''
    desc = [
        '#####',
        '#@$.#',
        '#####',
    ]
    assert soko.crear_grilla(desc) == soko.crear_grilla(list(desc))
    assert soko.crear_grilla(desc) != soko.mover(soko.crear_grilla(desc), ESTE)


def main():
    test_crear_sin_ganar()
    test_jugador_sobre_objetivo()
    test_ganado_desde_el_comienzo()
    test_mas_cajas_que_objetivos()
    test_espacios_fuera_de_las_paredes()
    test_objetivo_sin_caja()
    test_una_caja_dos_objetivos()
    test_mover_no_modifica()
    test_paredes_bloquean()
    test_caja_contra_pared_o_caja()
    test_empujar_hasta_ganar()
    test_sacar_caja_del_objetivo()
    test_jugador_pisa_objetivo()
    test_grillas_como_valores()
    print("Todo OK :)")


if __name__ == "__main__":
    main()
