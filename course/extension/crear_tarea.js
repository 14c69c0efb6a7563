// La barra «Crear tarea» de nbgrader (su plugin create-assignment), en español y con los puntos de la nota.
//
// nbgrader escribe sus rótulos sin el traductor de JupyterLab, así que aquí se cambian en la página, en
// cuanto aparecen (un MutationObserver): el tipo de cada celda, su identificador, sus puntos, el candado
// y las ventanas de aviso al guardar. Los textos son los de nbgrader 0.9.6 (create_assignment en su
// extensión de JupyterLab; course/formgrader/__init__.py guarda la huella de ese fichero).
//
// nbgrader suma los puntos de todas las celdas del cuaderno; la nota es sobre los de la versión que se
// publica, que pueden ser menos (con el cuestionario formativo, las celdas pregunta-N no se publican).
// Arriba de la barra se dice sobre cuántos puntos será la nota, y por qué no son los del cuaderno: lo
// calcula el servidor del profesor (course/formgrader, API/puntos) con la configuración del curso.

import { URLExt } from '@jupyterlab/coreutils';
import { INotebookTracker } from '@jupyterlab/notebook';
import { ServerConnection } from '@jupyterlab/services';
import { Widget } from '@lumino/widgets';

// El id de la barra lo pone nbgrader, con esta errata.
export const BARRA_DE_CREAR = 'nbgrader-create_assignemnt';
const PUNTOS = 'curso-harness/formgrader/api/puntos';

const ROTULOS = { 'Type: ': 'Tipo: ', 'ID: ': 'Identificador: ', 'Points: ': 'Puntos: ', 'Total points:': 'Puntos de las celdas:' };
const TIPOS = {
  '': '-',
  manual: 'Respuesta corregida a mano',
  task: 'Tarea corregida a mano',
  solution: 'Respuesta corregida automáticamente',
  tests: 'Pruebas automáticas',
  readonly: 'Solo lectura'
};
const CANDADO = 'Se vuelve a poner tal como está aquí: lo que cambie el estudiante no cuenta';
const AVISOS = [
  [/^Invalid nbgrader cell ID$/, 'Identificador de celda no válido'],
  [/^Duplicate nbgrader cell ID$/, 'Identificador de celda repetido'],
  [/^Outdated schema version$/, 'Metadatos de nbgrader de una versión antigua'],
  [/^At least one cell has an invalid nbgrader ID\..*/s,
    'Alguna celda tiene un identificador de nbgrader que no vale: necesita al menos un carácter y solo ' +
    'puede llevar letras, números, guiones y guiones bajos.'],
  [/^The nbgrader ID "(.*)" has been used for more than one cell\..*/s,
    'El identificador «$1» lo llevan varias celdas: cada celda de nbgrader necesita uno suyo.'],
  [/^At least one cell has an old version \((\d+)\) of the nbgrader metadata\..*/s,
    'Alguna celda tiene los metadatos de nbgrader de una versión antigua ($1). Haz una copia del cuaderno ' +
    'y actualízalos desde la terminal con: ']
];

function traducirTexto(texto) {
  for (const [patron, espanol] of AVISOS) {
    if (patron.test(texto)) {
      return texto.replace(patron, espanol);
    }
  }
  return null;
}

// Los rótulos de nbgrader dentro de `raiz`, en español (se puede repetir: lo ya traducido no cambia).
function traducir(raiz) {
  for (const rotulo of raiz.querySelectorAll('.nbgrader-CellWidget label, .nbgrader-NotebookPoints label')) {
    const texto = rotulo.firstChild;
    if (texto && texto.nodeType === Node.TEXT_NODE && ROTULOS[texto.textContent] !== undefined) {
      texto.textContent = ROTULOS[texto.textContent];
    }
  }
  for (const opcion of raiz.querySelectorAll('.nbgrader-CellType option')) {
    if (TIPOS[opcion.value] !== undefined && opcion.textContent !== TIPOS[opcion.value]) {
      opcion.textContent = TIPOS[opcion.value];
    }
  }
  for (const candado of raiz.querySelectorAll('.nbgrader-LockButton [title]')) {
    candado.title = CANDADO;
  }
}

// Las ventanas de aviso de nbgrader al guardar (identificadores repetidos o que no valen, metadatos viejos).
// JupyterLab pinta su contenido después de añadirlas a la página: se traducen también mientras se rellenan.
function traducirAviso(dialogo) {
  const cambiar = () => {
    const textos = document.createTreeWalker(dialogo, NodeFilter.SHOW_TEXT);
    for (let hijo = textos.nextNode(); hijo; hijo = textos.nextNode()) {
      const nuevo = traducirTexto(hijo.textContent.trim());
      if (nuevo !== null) {
        hijo.textContent = nuevo;
      }
    }
  };
  cambiar();
  new MutationObserver(cambiar).observe(dialogo, { childList: true, subtree: true });
}

function decimal(n) {
  return Number(n).toLocaleString('es-ES', { maximumFractionDigits: 2 });
}

function lista(nombres) {
  return nombres.length <= 1 ? nombres.join('') : `${nombres.slice(0, -1).join(', ')} y ${nombres[nombres.length - 1]}`;
}

// Arriba de la barra: sobre cuántos puntos será la nota del cuaderno activo, una vez publicado.
class PuntosDeLaNota extends Widget {
  constructor(seguimiento) {
    super();
    this.addClass('curso-puntos-de-la-nota');
    this.seguimiento = seguimiento;
    this.espera = null;
    this.modelo = null;
    this.alCambiar = () => this.programar();
    seguimiento.currentChanged.connect(() => this.seguir(), this);
    this.seguir();
  }

  seguir() {
    if (this.modelo) {
      this.modelo.cells.changed.disconnect(this.alCambiar);
      for (const celda of this.modelo.cells) {
        celda.metadataChanged.disconnect(this.alCambiar);
      }
    }
    const panel = this.seguimiento.currentWidget;
    this.modelo = panel && panel.model ? panel.model : null;
    if (this.modelo) {
      this.modelo.cells.changed.connect(this.alCambiar);
      for (const celda of this.modelo.cells) {
        celda.metadataChanged.connect(this.alCambiar);
      }
    }
    this.programar();
  }

  programar() {
    if (this.modelo) {  // una celda nueva también avisa de sus cambios
      for (const celda of this.modelo.cells) {
        celda.metadataChanged.disconnect(this.alCambiar);
        celda.metadataChanged.connect(this.alCambiar);
      }
    }
    clearTimeout(this.espera);
    this.espera = setTimeout(() => void this.calcular(), 300);
  }

  async calcular() {
    const modelo = this.modelo;
    if (!modelo) {
      this.pintar(null);
      return;
    }
    const celdas = Array.from(modelo.cells, c => ({ cell_type: c.type, metadata: c.metadata }));
    const ajustes = ServerConnection.makeSettings();
    try {
      const respuesta = await ServerConnection.makeRequest(URLExt.join(ajustes.baseUrl, PUNTOS),
        { method: 'POST', body: JSON.stringify({ celdas }) }, ajustes);
      if (modelo === this.modelo) {
        this.pintar(respuesta.ok ? await respuesta.json() : null);
      }
    } catch (error) {
      this.pintar(null);
    }
  }

  // Sin respuesta del servidor (no es el del profesor, o no tiene course/formgrader) se queda la suma de nbgrader.
  pintar(datos) {
    this.node.replaceChildren();
    if (!datos) {
      return;
    }
    const nota = document.createElement('p');
    nota.className = 'curso-sobre';
    nota.textContent = `La nota será sobre ${decimal(datos.puntos)} ${datos.puntos === 1 ? 'punto' : 'puntos'}.`;
    this.node.append(nota);
    if (datos.fuera.length) {
      const fuera = datos.fuera.reduce((suma, c) => suma + c.puntos, 0);
      const porque = document.createElement('p');
      porque.className = 'curso-fuera';
      porque.textContent = `Las celdas de este cuaderno suman ${decimal(datos.en_el_cuaderno)}: ` +
        `${lista(datos.fuera.map(c => c.grade_id))} (${decimal(fuera)}) no llegan a la versión publicada` +
        (datos.modo === 'formativo' ? ', porque el cuestionario va en modo formativo (nbgrader_config.py).' : '.');
      this.node.append(porque);
    }
  }
}

export const crearTareaPlugin = {
  id: 'curso-harness:crear-tarea',
  description: 'La barra Crear tarea de nbgrader, en español y con los puntos de la nota.',
  autoStart: true,
  requires: [INotebookTracker],
  activate: (app, seguimiento) => {
    void app.restored.then(() => {
      const barra = Array.from(app.shell.widgets('right')).find(w => w.id === BARRA_DE_CREAR);
      if (!barra) {
        return;  // sin el plugin create-assignment de nbgrader (un estudiante)
      }
      if (typeof barra.insertWidget === 'function') {
        barra.insertWidget(0, new PuntosDeLaNota(seguimiento));
      }
      traducir(barra.node);
      new MutationObserver(() => traducir(barra.node)).observe(barra.node, { childList: true, subtree: true });
      new MutationObserver(cambios => {
        for (const cambio of cambios) {
          for (const nodo of cambio.addedNodes) {
            if (nodo.classList && nodo.classList.contains('nbgrader-ErrorDialog')) {
              traducirAviso(nodo);
            }
          }
        }
      }).observe(document.body, { childList: true });
    });
  }
};
