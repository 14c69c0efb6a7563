"""La configuración del JupyterHub de `make hub`, que prepara y arranca course/hub/__init__.py.

Lee lo preparado del fichero que dice CURSO_HUB (hub.json) y los puertos de CURSO_HUB_PUERTOS.
Lo que un departamento se lleva a su JupyterHub está en las secciones «nbgrader» y «español»
(docs/hub.md, «For a department», dice cómo).
"""

import json
import os
import pwd
import sys
from pathlib import Path

c = get_config()  # noqa: F821 (JupyterHub la define al cargar este fichero)
hub = json.loads(Path(os.environ["CURSO_HUB"]).read_text(encoding="utf-8"))
puerto, puerto_hub, puerto_proxy = (int(p) for p in os.environ["CURSO_HUB_PUERTOS"].split(","))
entorno = Path(hub["entorno"])
estado = Path(hub["estado"])

# --------------------------------------------------------------------------- el hub, solo en esta máquina
c.JupyterHub.bind_url = f"http://127.0.0.1:{puerto}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = puerto_hub
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{puerto_proxy}"
c.ConfigurableHTTPProxy.command = [hub["proxy"]]
c.JupyterHub.db_url = f"sqlite:///{estado / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(estado / "jupyterhub_cookie_secret")

# --------------------------------------------------------------------------- quién entra
# Usuarios del sistema con su contraseña (PAM). Un departamento pone aquí su autenticador
# (LDAP, OAuth, LTI...): el resto no cambia mientras los nombres de usuario sean los mismos.
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = {hub["profesor"], *hub["estudiantes"]}
# El profesor administra el hub (ve y para los servidores de todos, en /hub/admin).
c.Authenticator.admin_users = {hub["profesor"]}

# --------------------------------------------------------------------------- servidores parados sin actividad
# jupyterhub-idle-culler, como servicio del hub: para el servidor de quien lleva un rato sin usarlo (su
# trabajo queda en su casa; al volver, el servidor arranca otra vez). Solo con los permisos que necesita.
c.JupyterHub.services = [{
    "name": "inactivos",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={hub['inactividad']}"],
}]
c.JupyterHub.load_roles = [{
    "name": "parar-servidores-inactivos",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["inactivos"],
}]

# --------------------------------------------------------------------------- nbgrader
# Los papeles, con los nombres de grupo de la documentación de nbgrader (JupyterHubAuthPlugin).
PROFESORES = f"formgrade-{hub['curso']}"
c.JupyterHub.load_groups = {
    PROFESORES: {"users": [hub["profesor"]]},
    f"nbgrader-{hub['curso']}": {"users": hub["estudiantes"]},
}

# Cada servidor, con el usuario de su dueño y en su casa (LocalProcessSpawner), con el Python del
# entorno del hub: JupyterLab, nbgrader, harness y la extensión del curso.
c.Spawner.cmd = [str(entorno / "bin" / "jupyterhub-singleuser")]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 180
c.Spawner.http_timeout = 120


def _en_espanol(nombre):
    """El idioma de JupyterLab en los ajustes de usuario de `nombre`, si no ha elegido otro: de ahí lo
    lee el servidor para traducir el editor de configuración (el navegador ya lo toma del entorno)."""
    usuario = pwd.getpwnam(nombre)
    carpeta = Path(usuario.pw_dir)
    for parte in (".jupyter", "lab", "user-settings", "@jupyterlab", "translation-extension"):
        carpeta = carpeta / parte
        if not carpeta.exists():
            carpeta.mkdir()
            os.chown(carpeta, usuario.pw_uid, usuario.pw_gid)
    idioma = carpeta / "plugin.jupyterlab-settings"
    if not idioma.exists():
        idioma.write_text(json.dumps(hub["idioma"]), encoding="utf-8")
        os.chown(idioma, usuario.pw_uid, usuario.pw_gid)


def antes_de_arrancar(spawner):
    """El profesor abre su copia del curso; un estudiante, su casa, sin lo que es solo del profesor."""
    try:
        _en_espanol(spawner.user.name)
    except (KeyError, OSError) as error:  # sin casa, o sin permiso: su servidor arranca igual
        spawner.log.warning("No se ha podido poner el español en los ajustes de %s: %s", spawner.user.name, error)
    if PROFESORES in {g.name for g in spawner.user.groups}:
        spawner.default_url = f"/lab/tree/{hub['copia']}"
    else:
        spawner.environment = dict(spawner.environment, JUPYTER_CONFIG_PATH=hub["config_estudiante"])


c.Spawner.pre_spawn_hook = antes_de_arrancar

# --------------------------------------------------------------------------- español
# Las páginas del hub (entrar, arrancar el servidor, salir...) en español: course/hub/plantillas/.
c.JupyterHub.template_paths = [hub["plantillas"]]
