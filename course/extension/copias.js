// La copia de los widgets del curso cuando su modelo ya no está.
//
// Cada widget de harness/aula lleva, en la misma salida que su vista, una copia en HTML (y en texto).
// Con el núcleo que lo creó, JupyterLab dibuja el widget. Al volver a abrir el cuaderno (otro núcleo) o al
// recargar la versión del navegador, el modelo ya no existe y el gestor de widgets de ipywidgets enseña
// «Error displaying widget: model not found» o «Loading widget...» para siempre. Aquí, en lugar de eso,
// se enseña la copia guardada, con una línea que dice cómo recuperar el widget.
//
// El gestor de ipywidgets (@jupyter-widgets/jupyterlab-manager) no tiene un punto de extensión para
// esto: se envuelve el método renderModel de su WidgetRenderer, la clase que dibuja cada salida de
// widget. Se hace sobre la clase (su prototipo), y no cambiando la fábrica, porque el gestor busca sus
// WidgetRenderer con instanceof para darles el gestor de cada cuaderno. tests/test_navegador.py
// (reabrir el cuaderno) y tests/test_lite.py (recargar el sitio) fallan si esto deja de funcionar.

import { Sanitizer } from '@jupyterlab/apputils';
import { IRenderMimeRegistry } from '@jupyterlab/rendermime';
import { IJupyterWidgetRegistry } from '@jupyter-widgets/base';

const VISTA = 'application/vnd.jupyter.widget-view+json';
// Lo que se espera a que llegue el widget antes de enseñar la copia: lo normal es que llegue en
// milisegundos; sin núcleo (o con uno que aún arranca) no llega, y la copia no debe hacerse esperar.
const ESPERA_DEL_WIDGET = 800;
const AVISO = 'Copia guardada de este widget: vuelve a ejecutar la celda para usarlo.';

const limpiador = new Sanitizer();

function ponerCopia(salida, modelo) {
  const html = modelo.data['text/html'];
  if (typeof html !== 'string' || salida.isDisposed || salida.widgets.length) {
    return false;
  }
  const copia = document.createElement('div');
  copia.className = 'curso-copia';
  const aviso = document.createElement('div');
  aviso.className = 'curso-copia-aviso';
  aviso.textContent = AVISO;
  const contenido = document.createElement('div');
  // Un cuaderno de confianza enseña su HTML tal cual, como haría JupyterLab con text/html; si no, limpio.
  contenido.innerHTML = modelo.trusted ? html : limpiador.sanitize(html);
  copia.append(aviso, contenido);
  salida.node.replaceChildren(copia);
  return true;
}

function conCopia(prototipo) {
  if (prototipo.cursoConCopia) {
    return;
  }
  const dibujar = prototipo.renderModel;
  prototipo.cursoConCopia = true;
  prototipo.renderModel = async function (modelo) {
    // Mientras el gestor busca el modelo, su «Loading widget...», en español.
    const hecho = dibujar.call(this, modelo);
    if (!this.widgets.length && typeof modelo.data['text/html'] === 'string') {
      this.node.textContent = 'Cargando el widget…';
    }
    // Si el gestor no llega nunca (un núcleo que no arranca), su promesa no acaba: la copia, tras la espera.
    const espera = setTimeout(() => ponerCopia(this, modelo), ESPERA_DEL_WIDGET);
    try {
      await hecho;
    } finally {
      if (ponerCopia(this, modelo) || this.widgets.length) {
        clearTimeout(espera);
      }
    }
  };
}

export const copiasPlugin = {
  id: 'curso-harness:copias',
  description: 'Enseña la copia en HTML de un widget del curso cuando su modelo ya no está.',
  autoStart: true,
  requires: [IRenderMimeRegistry],
  // Con el registro de widgets como dependencia, el gestor de ipywidgets se activa antes: su fábrica ya está.
  optional: [IJupyterWidgetRegistry],
  activate: (app, rendermime, registro) => {
    const fabrica = registro ? rendermime.getFactory(VISTA) : undefined;
    if (!fabrica) {
      return;
    }
    const muestra = fabrica.createRenderer({ mimeType: VISTA });
    conCopia(Object.getPrototypeOf(muestra));
    muestra.dispose();
  }
};
