"""Las rutas propias del formgrader en español (course/formgrader): guiones, notas y puntos.

Son manejadores del formgrader de nbgrader (su BaseHandler: el curso, el gradebook, la configuración),
con su misma autenticación; solo se registran si el formgrader está activo.
"""

import json

from nbgrader.server_extensions.formgrader.base import BaseApiHandler, BaseHandler, check_xsrf
from tornado import web

from .. import limites
from . import guion, notas_de_la_clase, puntos_publicados



class Guion(BaseHandler):
    """GET: curso.js, curso.css o un guion del formgrader de nbgrader, ya en español."""

    @web.authenticated
    def get(self, nombre):
        servido = guion(nombre)
        if servido is None:
            raise web.HTTPError(404)
        datos, tipo, faltan = servido
        if faltan:
            self.log.warning("curso-harness: %s ya no tiene estas cadenas de traduccion.po (¿otro nbgrader?): %s",
                             nombre, "; ".join(faltan))
        self.set_header("Content-Type", tipo + "; charset=utf-8")
        self.set_header("Cache-Control", "no-cache")
        self.finish(datos)


class Notas(BaseApiHandler):
    """GET: la nota que cuenta de cada estudiante en cada tarea (course.formgrader.notas_de_la_clase)."""

    @web.authenticated
    @check_xsrf
    def get(self):
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(notas_de_la_clase(self.coursedir.root, self.db_url, self.api.config)))


class Puntos(BaseApiHandler):
    """POST {"celdas": [...]}: sobre cuántos puntos será la nota del cuaderno publicado (puntos_publicados)."""

    @web.authenticated
    @check_xsrf
    def post(self):
        datos = self.get_json_body()
        celdas = datos.get("celdas") if isinstance(datos, dict) else None
        if not isinstance(celdas, list) or len(celdas) > limites.CELDAS_DE_UNA_PETICION:
            raise web.HTTPError(400, "se esperaba {\"celdas\": [...]}")
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(puntos_publicados(celdas, self.api.config)))
