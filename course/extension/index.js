// La extensión de JupyterLab del curso: lo que nbgrader enseña en inglés, en español.
//
// - «Validar», en la barra de cada cuaderno, con su ventana de resultados.
// - La pestaña «Tareas»: descargar, validar y entregar una tarea, y descargar su retroalimentación.
// - El menú «Curso»: las tareas, y para el profesor el formgrader y la barra de crear tareas.
// - La barra de crear tareas, en español y con los puntos de la nota (crear_tarea.js).
// - La copia guardada de un widget del curso cuando su modelo ya no está (copias.js).
// - Los textos en inglés de la barra del cuaderno y «Preparando Python…» en la versión del navegador (textos.js).
//
// Los dos últimos no necesitan servidor y también van en la versión del navegador (course/lite.py apaga
// los otros: validar, tareas y crear-tarea).
//
// No hay servidor propio: se llama a los puntos de acceso de las extensiones de servidor de nbgrader
// (validate_assignment, assignment_list, formgrader), los mismos que usa su interfaz inglesa, que
// package.json apaga donde esta la sustituye. Sin TypeScript: el constructor de JupyterLab lo
// empaqueta tal cual (`make extension`).

import { ILayoutRestorer } from '@jupyterlab/application';
import { Dialog, ICommandPalette, MainAreaWidget, ToolbarButton, WidgetTracker, showDialog } from '@jupyterlab/apputils';
import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import { IMainMenu } from '@jupyterlab/mainmenu';
import { ServerConnection } from '@jupyterlab/services';
import { Menu, Widget } from '@lumino/widgets';

import { crearTareaPlugin } from './crear_tarea';
import { copiasPlugin } from './copias';
import { textosPlugin } from './textos';

const ORDEN = {
  tareas: 'curso-harness:tareas',
  formgrader: 'curso-harness:formgrader',
  crearTarea: 'curso-harness:crear-tarea'
};
// La barra lateral de crear tareas la pone el plugin create-assignment de nbgrader (con esta errata en su id).
const BARRA_DE_CREAR = 'nbgrader-create_assignemnt';

// ------------------------------------------------------------------ peticiones al servidor

async function pedir(ruta, opciones = {}) {
  const ajustes = ServerConnection.makeSettings();
  const respuesta = await ServerConnection.makeRequest(URLExt.join(ajustes.baseUrl, ruta), opciones, ajustes);
  if (!respuesta.ok) {
    throw new Error(`el servidor contesta ${respuesta.status} a ${ruta}`);
  }
  return respuesta.json();
}

function enviar(ruta, datos) {
  return pedir(ruta, { method: 'POST', body: JSON.stringify(datos) });
}

// Si la extensión de servidor que sirve `ruta` está activa (contesta algo que no es un 404).
async function hay(ruta) {
  try {
    await pedir(ruta);
    return true;
  } catch (error) {
    return false;
  }
}

// ------------------------------------------------------------------ trozos de interfaz

function nodo(etiqueta, atributos = {}, ...hijos) {
  const elemento = document.createElement(etiqueta);
  for (const [nombre, valor] of Object.entries(atributos)) {
    if (nombre === 'onclick') {
      elemento.onclick = valor;
    } else {
      elemento.setAttribute(nombre, valor);
    }
  }
  elemento.append(...hijos.filter(h => h !== null && h !== undefined));
  return elemento;
}

function boton(texto, accion, clase = '') {
  const b = nodo('button', { type: 'button', class: `jp-Button jp-mod-styled curso-boton ${clase}` }, texto);
  b.onclick = async () => {
    b.disabled = true;
    try {
      await accion(b);
    } finally {
      b.disabled = false;
    }
  };
  return b;
}

function detalles(texto) {
  return nodo('details', { class: 'curso-detalles' }, nodo('summary', {}, 'Detalles'), nodo('pre', {}, texto));
}

function aviso(titulo, cuerpo) {
  return showDialog({ title: titulo, body: cuerpo, buttons: [Dialog.okButton({ label: 'Aceptar' })] });
}

// Lo que nbgrader escribe en inglés dentro de un resultado, dicho en español.
const FRASES_DE_NBGRADER = [
  ['You did not provide a response.', 'No has escrito ninguna respuesta.'],
  ['Partial credit; passed some but not all of the tests', 'Puntuación parcial: pasa algunas pruebas, pero no todas.']
];

function sinColores(texto) {
  let limpio = String(texto || '').replace(/\x1b\[[0-9;]*[A-Za-z]/g, '');
  for (const [ingles, espanol] of FRASES_DE_NBGRADER) {
    limpio = limpio.split(ingles).join(espanol);
  }
  return limpio;
}

const TIPOS_DE_CELDA = { code: 'código', markdown: 'Markdown', raw: 'texto sin formato' };

// ------------------------------------------------------------------ Validar

// Lo que dice una prueba que no pasa, separado de su traza: las pruebas del curso ya dicen en una línea
// «✘ No pasa: …»; de una traza de Python, lo que importa es la excepción, su última parte.
// En una traza de IPython, el código va sangrado o detrás de su número; la excepción empieza la línea.
const EXCEPCION = /^[A-Z_][\w.]*(: |:?$)/;

function mensajeDeFallo(texto) {
  const limpio = sinColores(texto).replace(/\s+$/, '');
  const lineas = limpio.split('\n');
  if (lineas.length < 2 || !/Traceback|^-{20,}/m.test(limpio)) {
    return { mensaje: limpio, traza: null };
  }
  let desde = lineas.length - 1;
  for (let i = lineas.length - 1; i >= 0; i--) {
    if (EXCEPCION.test(lineas[i])) {
      desde = i;
      break;
    }
  }
  return { mensaje: lineas.slice(desde).join('\n'), traza: limpio };
}

// El resumen de una prueba plegada: su primera línea de comentario («Prueba visible, regla 3…»).
function resumenDePrueba(fuente) {
  const comentario = String(fuente || '').split('\n').find(l => l.trim().startsWith('#'));
  const titulo = comentario ? comentario.replace(/^\s*#+\s*/, '').replace(/[,:;]\s*$/, '') : '';
  const corto = titulo.length > 90 ? titulo.slice(0, 89).replace(/\s+\S*$/, '') + '…' : titulo;
  return corto ? `Ver la prueba: ${corto}` : 'Ver la prueba';
}

// Una celda que no pasa: primero qué arreglar, que se lee sin desplazar nada; la prueba y la traza, plegadas.
function fallo(celda) {
  const { mensaje, traza } = mensajeDeFallo(celda.raw_error || celda.error);
  return nodo('div', { class: 'curso-fallo' },
    nodo('div', { class: 'curso-error' }, mensaje),
    traza ? nodo('details', { class: 'curso-traza' }, nodo('summary', {}, 'Ver la traza completa'), nodo('pre', {}, traza)) : null,
    nodo('details', { class: 'curso-fuente' }, nodo('summary', {}, resumenDePrueba(celda.source)), nodo('pre', {}, celda.source)));
}

// El cuerpo de la ventana de resultados. Conserva el contrato de la de nbgrader (div#validation-message
// con una clase validation-* que dice el veredicto) para que lo reconozcan las pruebas y los estilos.
function resultadoDeValidar(respuesta) {
  const cuerpo = nodo('div', { id: 'validation-message' });
  let veredicto;
  if (!respuesta.success) {
    veredicto = 'validation-error';
    cuerpo.append(nodo('p', {}, 'No se ha podido validar el cuaderno. Esto es lo que ha dicho nbgrader:'),
      nodo('pre', {}, sinColores(respuesta.value)));
  } else {
    const datos = typeof respuesta.value === 'string' ? JSON.parse(respuesta.value) : respuesta.value;
    if (datos.type_changed) {
      veredicto = 'validation-type-changed';
      for (const celda of datos.type_changed) {
        cuerpo.append(nodo('p', {}, `Esta celda era de ${TIPOS_DE_CELDA[celda.new_type] || celda.new_type} y ahora es de ` +
          `${TIPOS_DE_CELDA[celda.old_type] || celda.old_type}; vuelve a ponerle su tipo:`), nodo('pre', {}, celda.source));
      }
    } else if (datos.changed) {
      veredicto = 'validation-changed';
      for (const celda of datos.changed) {
        cuerpo.append(nodo('p', {}, 'Has cambiado esta celda, que no se puede cambiar; deja su contenido como estaba:'),
          nodo('pre', {}, celda.source));
      }
    } else if (datos.failed) {
      veredicto = 'validation-failed';
      cuerpo.append(nodo('p', {}, (datos.failed.length === 1 ? 'Una celda no pasa sus pruebas' :
        `${datos.failed.length} celdas no pasan sus pruebas`) + '. Esto es lo que tienes que arreglar:'));
      for (const celda of datos.failed) {
        cuerpo.append(fallo(celda));
      }
    } else {
      veredicto = 'validation-success';
      cuerpo.append(nodo('p', {}, '¡Bien! Tu cuaderno pasa todas las pruebas que puedes ver. ' +
        'Las pruebas ocultas se comprueban al corregir.'));
    }
  }
  cuerpo.classList.add(veredicto);
  return { cuerpo, bien: veredicto === 'validation-success' };
}

async function validar(ruta) {
  let respuesta;
  try {
    respuesta = await enviar('assignments/validate', { path: ruta });
  } catch (error) {
    respuesta = { success: false, value: `${error.message}. ¿Está activa la extensión de servidor validate_assignment de nbgrader?` };
  }
  const { cuerpo, bien } = resultadoDeValidar(respuesta);
  const dialogo = new Dialog({
    title: bien ? 'Validación: todo bien' : 'Validación: hay algo que revisar',
    body: new Widget({ node: cuerpo }),
    buttons: [Dialog.okButton({ label: 'Aceptar' })]
  });
  dialogo.addClass(bien ? 'curso-validacion-bien' : 'curso-validacion-mal');
  await dialogo.launch();
  return bien;
}

// El botón «Validar» de la barra de un cuaderno: guarda y valida el fichero guardado.
class BotonValidar {
  createNew(panel, contexto) {
    const b = new ToolbarButton({
      className: 'validate-button',
      label: 'Validar',
      tooltip: 'Guarda el cuaderno, lo ejecuta entero en un núcleo nuevo y comprueba las pruebas que puedes ver',
      onClick: () => void this.pulsar(b, contexto)
    });
    let sitio = 0;  // delante del espacio que separa los botones del estado del núcleo
    for (const hijo of panel.toolbar.children()) {
      if (hijo.node.classList.contains('jp-Toolbar-spacer')) {
        break;
      }
      sitio++;
    }
    panel.toolbar.insertItem(sitio, 'validar', b);
    return b;
  }

  async pulsar(b, contexto) {
    const etiqueta = texto => {
      const e = b.node.querySelector('.jp-ToolbarButtonComponent-label');
      if (e) {
        e.textContent = texto;
      }
    };
    const control = b.node.querySelector('jp-button, button');
    control?.setAttribute('disabled', 'disabled');
    try {
      etiqueta('Guardando…');
      try {
        await contexto.save();
      } catch (error) {
        await aviso('No se ha podido guardar', nodo('p', {}, `El cuaderno no se ha guardado, así que no se valida: ${error.message || error}`));
        return;
      }
      etiqueta('Validando…');
      await validar(contexto.path);
    } finally {
      etiqueta('Validar');
      control?.removeAttribute('disabled');
    }
  }
}

// ------------------------------------------------------------------ la pestaña Tareas

function fecha(marca) {
  // nbgrader escribe «2026-03-01 22:59:00.123456 UTC»
  const d = new Date(String(marca).replace(' UTC', 'Z').replace(' ', 'T'));
  return isNaN(d) ? String(marca) : d.toLocaleString('es-ES', { dateStyle: 'long', timeStyle: 'short' });
}

function mensajeDeError(valor) {
  const texto = String(valor || '');
  if (/exchange directory/i.test(texto)) {
    return 'El intercambio de nbgrader (la carpeta común donde el profesor publica las tareas y recoge las entregas) ' +
      'no existe o no se puede escribir. Díselo a tu profesor.';
  }
  return 'nbgrader no ha podido hacerlo.';
}

class Tareas extends Widget {
  constructor(app) {
    super();
    this.app = app;
    this.id = 'curso-harness-tareas';
    this.addClass('curso-tareas');
    this.curso = null;
    this.lista = nodo('div', { class: 'curso-lista' }, nodo('p', {}, 'Cargando…'));
    this.selector = nodo('span', { class: 'curso-cursos' });
    this.node.append(
      nodo('div', { class: 'curso-cabecera' },
        nodo('h2', {}, 'Tareas'), this.selector,
        boton('Actualizar', () => this.cargar(), 'curso-actualizar')),
      this.lista);
  }

  onAfterAttach() {
    void this.cargar();
  }

  async cargar() {
    let cursos;
    try {
      cursos = await pedir('courses');
    } catch (error) {
      this.pintarError('No se ha podido leer la lista de cursos: el servidor no tiene activa la extensión assignment_list de nbgrader.', error.message);
      return;
    }
    if (!cursos.success) {
      this.pintarError(mensajeDeError(cursos.value), cursos.value);
      return;
    }
    this.pintarCursos(cursos.value);
    if (!this.curso) {
      this.lista.replaceChildren(nodo('p', { class: 'curso-vacio' }, 'Todavía no hay ninguna tarea publicada para ti.'));
      return;
    }
    try {
      this.pintar(await pedir(`assignments?course_id=${encodeURIComponent(this.curso)}`));
    } catch (error) {
      this.pintarError('No se ha podido leer la lista de tareas.', error.message);
    }
  }

  pintarCursos(cursos) {
    if (!cursos.includes(this.curso)) {
      this.curso = cursos.length ? cursos[0] : null;
    }
    if (cursos.length <= 1) {
      this.selector.replaceChildren(this.curso ? `del curso ${this.curso}` : '');
      return;
    }
    const lista = nodo('select', { 'aria-label': 'Curso' }, ...cursos.map(c => nodo('option', { value: c }, c)));
    lista.value = this.curso;
    lista.onchange = () => {
      this.curso = lista.value;
      void this.cargar();
    };
    this.selector.replaceChildren('del curso ', lista);
  }

  pintarError(mensaje, detalle) {
    this.lista.replaceChildren(nodo('div', { class: 'curso-error-lista' }, nodo('p', {}, mensaje), detalle ? detalles(detalle) : null));
  }

  // `respuesta`: lo que contestan GET assignments y POST assignments/<acción> ({success, value}).
  pintar(respuesta) {
    if (!respuesta.success) {
      this.pintarError(mensajeDeError(respuesta.value), respuesta.value);
      return;
    }
    const por = estado => respuesta.value.filter(t => t.status === estado);
    this.lista.replaceChildren(
      this.seccion('released', 'Para descargar', 'No hay tareas nuevas para descargar.', por('released'), t => this.publicada(t)),
      this.seccion('fetched', 'Descargadas', 'No tienes ninguna tarea descargada.', por('fetched'), t => this.descargada(t)),
      this.seccion('submitted', 'Entregadas', 'Aún no has entregado ninguna tarea.', por('submitted'), t => this.entregada(t)));
  }

  seccion(estado, titulo, vacia, tareas, fila) {
    return nodo('section', { class: 'curso-seccion', 'data-estado': estado },
      nodo('h3', {}, titulo),
      ...(tareas.length ? tareas.map(fila) : [nodo('p', { class: 'curso-vacio' }, vacia)]));
  }

  fila(tarea, ...resto) {
    // El plazo lo publica el profesor en el intercambio del hub (course/hub/plazos.py); fuera del hub no hay.
    const plazo = tarea.plazo ? nodo('span', { class: 'curso-plazo' }, `plazo: ${fecha(tarea.plazo)}`) : null;
    return nodo('div', { class: 'curso-tarea', 'data-tarea': tarea.assignment_id },
      nodo('span', { class: 'curso-nombre' }, tarea.assignment_id), plazo, ...resto);
  }

  async accion(accion, tarea, titulo) {
    let respuesta;
    try {
      respuesta = await enviar(`assignments/${accion}`, { course_id: tarea.course_id, assignment_id: tarea.assignment_id });
    } catch (error) {
      respuesta = { success: false, value: error.message };
    }
    if (!respuesta.success) {
      await aviso(titulo, nodo('div', { class: 'curso-error-accion' }, nodo('p', {}, mensajeDeError(respuesta.value)), detalles(respuesta.value)));
      await this.cargar();
      return;
    }
    this.pintar(respuesta);
  }

  publicada(tarea) {
    return this.fila(tarea, boton('Descargar', () => this.accion('fetch', tarea, 'No se ha podido descargar la tarea'), 'curso-descargar'));
  }

  descargada(tarea) {
    const cuadernos = nodo('ul', { class: 'curso-cuadernos' }, ...tarea.notebooks.map(c =>
      nodo('li', {},
        nodo('a', { href: '#', class: 'curso-abrir', onclick: evento => {
          evento.preventDefault();
          void this.app.commands.execute('docmanager:open', { path: c.path });
        } }, `${c.notebook_id}.ipynb`),
        boton('Validar', () => validar(c.path), 'curso-validar'))));
    return this.fila(tarea,
      boton('Entregar', () => this.accion('submit', tarea, 'No se ha podido entregar la tarea'), 'curso-entregar'),
      cuadernos);
  }

  entregada(tarea) {
    const entregas = tarea.submissions.map(e => {
      let estado;
      if (e.has_local_feedback && !e.feedback_updated) {
        // La página de cada cuaderno, tal cual, en otra pestaña del navegador: sin buscarla en carpetas
        // ni tener que «confiar» en ella (no lleva scripts).
        estado = nodo('span', {}, ...e.notebooks.filter(c => c.has_local_feedback).map(c =>
          nodo('a', {
            class: 'curso-ver-retroalimentacion', target: '_blank', rel: 'noopener',
            href: URLExt.join(PageConfig.getBaseUrl(), 'files', URLExt.encodeParts(`${e.local_feedback_path}/${c.notebook_id}.html`))
          }, e.notebooks.length > 1 ? `ver la retroalimentación de ${c.notebook_id}` : 'ver la retroalimentación')));
      } else if (e.has_exchange_feedback) {
        estado = nodo('span', { class: 'curso-hay-retroalimentacion' }, 'retroalimentación lista para descargar');
      } else {
        estado = nodo('span', { class: 'curso-sin-retroalimentacion' }, 'sin retroalimentación todavía');
      }
      const plazo = tarea.plazo && e.tarde !== undefined ? (e.tarde ? ', fuera de plazo' : ', dentro de plazo') : '';
      return nodo('li', { class: e.tarde ? 'curso-tarde' : '' }, `Entregada el ${fecha(e.timestamp)}${plazo}: `, estado);
    });
    const pendiente = tarea.submissions.some(e => e.has_exchange_feedback && (!e.has_local_feedback || e.feedback_updated));
    return this.fila(tarea,
      pendiente ? boton('Descargar la retroalimentación',
        () => this.accion('fetch_feedback', tarea, 'No se ha podido descargar la retroalimentación'), 'curso-descargar-retroalimentacion') : null,
      nodo('ul', { class: 'curso-entregas' }, ...entregas));
  }
}

// ------------------------------------------------------------------ los plugins

const validarPlugin = {
  id: 'curso-harness:validar',
  description: 'El botón Validar de nbgrader, en español.',
  autoStart: true,
  activate: app => {
    app.docRegistry.addWidgetExtension('Notebook', new BotonValidar());
  }
};

const tareasPlugin = {
  id: 'curso-harness:tareas',
  description: 'La pestaña Tareas (la lista de tareas de nbgrader) y el menú Curso, en español.',
  autoStart: true,
  requires: [IMainMenu],
  optional: [ICommandPalette, ILayoutRestorer],
  activate: (app, menuPrincipal, paleta, restaurador) => {
    const seguimiento = new WidgetTracker({ namespace: 'curso-harness-tareas' });
    let pestana = null;
    const enHub = Boolean(PageConfig.getOption('hubPrefix'));
    let tareas = false;
    let profesor = false;

    app.commands.addCommand(ORDEN.tareas, {
      label: 'Tareas',
      caption: 'Descargar, validar y entregar las tareas del curso, y descargar su retroalimentación',
      isVisible: () => tareas,
      execute: () => {
        if (!pestana || pestana.isDisposed) {
          pestana = new MainAreaWidget({ content: new Tareas(app) });
          pestana.id = 'curso-harness-tareas-pestana';
          pestana.title.label = 'Tareas';
          pestana.title.closable = true;
        }
        if (!seguimiento.has(pestana)) {
          void seguimiento.add(pestana);
        }
        if (!pestana.isAttached) {
          app.shell.add(pestana, 'main');
        }
        app.shell.activateById(pestana.id);
      }
    });
    app.commands.addCommand(ORDEN.formgrader, {
      label: 'Corregir y poner notas (formgrader)',
      caption: enHub ? 'Abre el formgrader de nbgrader en otra pestaña del navegador' : 'Abre el formgrader de nbgrader',
      isVisible: () => profesor,
      execute: () => {
        // Dentro de JupyterHub (4.1 o posterior) el servidor no deja que la página vaya en un iframe,
        // así que el formgrader se abre en una pestaña del navegador; fuera, en una de JupyterLab.
        if (enHub || !app.commands.hasCommand('nbgrader:open-formgrader')) {
          window.open(URLExt.join(PageConfig.getBaseUrl(), 'formgrader'), '_blank');
        } else {
          return app.commands.execute('nbgrader:open-formgrader');
        }
      }
    });
    app.commands.addCommand(ORDEN.crearTarea, {
      label: 'Crear una tarea (barra lateral de nbgrader)',
      isVisible: () => profesor && Array.from(app.shell.widgets('right')).some(w => w.id === BARRA_DE_CREAR),
      execute: () => app.shell.activateById(BARRA_DE_CREAR)
    });

    const menu = new Menu({ commands: app.commands });
    menu.id = 'curso-harness-menu';
    menu.title.label = 'Curso';
    menu.addItem({ command: ORDEN.tareas });
    menu.addItem({ type: 'separator' });
    menu.addItem({ command: ORDEN.formgrader });
    menu.addItem({ command: ORDEN.crearTarea });

    if (restaurador) {
      void restaurador.restore(seguimiento, { command: ORDEN.tareas, name: () => 'curso-harness-tareas' });
    }

    // El enlace para saltar al panel principal (solo se ve con el teclado): JupyterLab lo escribe sin traductor.
    void app.restored.then(() => {
      for (const enlace of document.querySelectorAll('#jp-skiplink .skip-link')) {
        enlace.textContent = 'Saltar al panel principal';
      }
    });

    // Qué hay en este servidor: la lista de tareas (assignment_list) y el formgrader, solo del profesor. El
    // JupyterLab del estudiante en su ordenador (make lab, empezar.py) no tiene ninguno de los dos, y su
    // configuración lo dice (cursoHarnessSinTareas): ni se pregunta, que cada 404 sale en su terminal.
    const sinTareas = PageConfig.getOption('cursoHarnessSinTareas') === 'true';
    const preguntas = sinTareas ? [false, false] : [hay('courses'), hay('formgrader/api/status')];
    void Promise.all([...preguntas, app.restored]).then(([t, f]) => {
      tareas = t;
      profesor = f;
      for (const barra of app.shell.widgets('right')) {
        if (barra.id === BARRA_DE_CREAR) {
          barra.title.label = 'Crear tarea';
          barra.title.caption = 'Marcar las celdas de una tarea de nbgrader (respuestas, pruebas, puntos)';
        }
      }
      if (!tareas && !profesor) {
        return;
      }
      menuPrincipal.addMenu(menu, true, { rank: 800 });
      if (paleta) {
        for (const orden of Object.values(ORDEN)) {
          paleta.addItem({ command: orden, category: 'Curso' });
        }
      }
    });
  }
};

export default [validarPlugin, tareasPlugin, crearTareaPlugin, copiasPlugin, textosPlugin];
